#include "common/nearest_name.hpp"

#include <algorithm>

namespace gemm {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Optimal string alignment: Levenshtein's edits plus a swap of two neighbours.
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t replace = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + replace});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

std::optional<std::string> nearest_name(const std::string &typed, const std::vector<std::string> &names) {
    const std::size_t letters = typed.size() - std::min(typed.find_first_not_of('-'), typed.size());
    const std::size_t allowed = std::max<std::size_t>(1, letters / 3);
    std::optional<std::string> best;
    std::size_t best_distance = allowed + 1;
    for (const auto &name : names) {
        const std::size_t distance = edit_distance(typed, name);
        if (distance < best_distance) {
            best = name;
            best_distance = distance;
        }
    }
    if (best) return best;
    std::vector<std::string> begun;
    for (const auto &name : names)
        if (letters >= 2 && name.size() > typed.size() && name.compare(0, typed.size(), typed) == 0)
            begun.push_back(name);
    if (begun.size() == 1) return begun.front();
    return std::nullopt;
}

} // namespace gemm
