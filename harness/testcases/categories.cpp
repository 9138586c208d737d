#include "testcases/categories.hpp"

namespace gemm {

const std::vector<CategoryTraits> &categories() {
    // huge cases exist to catch 32-bit index overflow: the smallest failing shape of such a
    // failure is huge again, so shrinking would only repeat it; they need about 40 GB of GPU
    // memory, so they run only when named.
    static const std::vector<CategoryTraits> table = {
        {"sample", true, false, false, false, true, true, "tiny public cases whose data a failure shows"},
        {"secret", true, false, false, false, true, false, "edge shapes: primes, tile edges, 1-wide, degenerate"},
        {"perf", true, true, true, true, true, false, "large shapes timed beside cuBLAS"},
        {"rank", false, true, false, true, true, false, "more shapes of the ranked set, timed by ./judge rank"},
        {"huge", false, false, false, false, false, false, "over 2^31 elements: 32-bit index overflow"},
    };
    return table;
}

const CategoryTraits &category_traits(const std::string &name) {
    static const CategoryTraits none = {"", false, false, false, false, true, false, "outside every category"};
    for (const auto &c : categories())
        if (name == c.name) return c;
    return none;
}

std::vector<std::string> category_names() {
    std::vector<std::string> names;
    for (const auto &c : categories()) names.push_back(c.name);
    return names;
}

std::vector<std::string> default_category_names() {
    std::vector<std::string> names;
    for (const auto &c : categories())
        if (c.runs_by_default) names.push_back(c.name);
    return names;
}

} // namespace gemm
