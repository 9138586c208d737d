#include "testcases/categories.hpp"
#include "verification/memory_blame.hpp"

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

const std::vector<RunSelection> &run_selections() {
    static const std::vector<RunSelection> table = {
        {"default", default_category_names(), "every category that runs without --category"},
        {"quick", {"sample"}, "the public sample cases alone, in seconds"},
    };
    return table;
}

const RunSelection *find_run_selection(const std::string &name) {
    for (const auto &s : run_selections())
        if (name == s.name) return &s;
    return nullptr;
}

bool fail_fast_stops(int crashed_or_hung, bool keep_going) { return !keep_going && crashed_or_hung >= fail_fast_limit; }

std::optional<std::string> too_big_for_gpu(const TestCase &tc, long long gpu_memory_bytes) {
    const double needed = gpu_bytes_needed(tc.M, tc.N, tc.K, tc.layout);
    if (needed <= 0.9 * double(gpu_memory_bytes)) return std::nullopt;
    return "needs " + std::to_string(int(needed / 1e9)) + " GB of GPU memory, the GPU has " +
           std::to_string(int(gpu_memory_bytes / 1e9)) + " GB";
}

bool small_enough_to_sanitize(const TestCase &tc) {
    return double(tc.M) * tc.N * tc.K * double(tc.layout.batch) <= (1 << 22);
}

} // namespace gemm
