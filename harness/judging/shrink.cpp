#include "judging/shrink.hpp"

#include <algorithm>
#include <set>

namespace gemm {

namespace {

constexpr const char *dimension_names[3] = {"M", "N", "K"};

int &dimension(Shape &s, int d) { return d == 0 ? s.M : d == 1 ? s.N : s.K; }

// Small sizes and the sizes around tile edges, where kernels break, then halving steps.
std::vector<int> candidates_below(int d) {
    std::set<int> values{1, 2, 3, 4, 5, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, d / 4, d / 2, d - 1};
    std::vector<int> below;
    for (int v : values)
        if (v >= 1 && v < d) below.push_back(v);
    return below; // ascending: the first failing one is the smallest tried
}

} // namespace

ShrinkResult shrink_failure(const Shape &start, const std::function<bool(const Shape &)> &fails, int max_attempts) {
    ShrinkResult result;
    result.smallest = start;
    std::map<Shape, bool> judged{{start, true}};
    auto judge = [&](const Shape &s) {
        if (auto known = judged.find(s); known != judged.end()) return known->second;
        ++result.attempts;
        return judged[s] = fails(s);
    };
    for (bool shrunk = true; shrunk && result.attempts < max_attempts;) {
        shrunk = false;
        for (int d = 0; d < 3 && result.attempts < max_attempts; ++d) {
            for (int value : candidates_below(dimension(result.smallest, d))) {
                if (result.attempts >= max_attempts) break;
                Shape smaller = result.smallest;
                dimension(smaller, d) = value;
                if (judge(smaller)) {
                    result.smallest = smaller;
                    shrunk = true;
                    break;
                }
            }
        }
    }
    for (int d = 0; d < 3; ++d) {
        Shape one_less = result.smallest;
        if (--dimension(one_less, d) < 1) continue;
        if (auto known = judged.find(one_less); known != judged.end() && !known->second)
            result.thresholds.push_back(std::string(dimension_names[d]) + " = " +
                                        std::to_string(dimension(one_less, d)) + " passes");
    }
    return result;
}

std::string describe_thresholds(const ShrinkResult &result) {
    std::string words;
    for (int d = 0; d < 3; ++d) {
        Shape s = result.smallest;
        const int value = dimension(s, d);
        const std::string name = dimension_names[d];
        const std::string passes = name + " = " + std::to_string(value - 1) + " passes";
        if (std::find(result.thresholds.begin(), result.thresholds.end(), passes) == result.thresholds.end()) continue;
        std::string why;
        for (int tile : {128, 64, 32, 16, 8, 4}) {
            if (value > tile && value % tile == 1) {
                why = "fails once " + name + " passes a multiple of " + std::to_string(tile) + " (" + passes + ", " +
                      name + " = " + std::to_string(value) +
                      " fails): " + (d == 1 ? "the reduction loop's partial tile" : "partial tiles along " + name);
                break;
            }
        }
        if (why.empty()) why = passes + ", " + name + " = " + std::to_string(value) + " fails";
        words += (words.empty() ? "" : "; ") + why;
    }
    return words;
}

} // namespace gemm
