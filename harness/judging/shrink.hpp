// The smallest failing case: shrink M, N and K while the failure persists, like a
// property-based tester, so a learner debugs 1×17×1 instead of 4097×4095×4093.
#pragma once

#include "common/shape.hpp"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gemm {

struct ShrinkResult {
    Shape smallest;
    int attempts = 0;
    // For each dimension of the smallest shape, one smaller value that passes:
    // "N = 16 passes": where the failure starts.
    std::vector<std::string> thresholds;
};

// `fails` judges one shape; it is called at most `max_attempts` times and never twice
// for the same shape. Greedy: for each dimension in turn, the smallest still failing of
// the small sizes, the sizes around tile edges (15, 16, 17, 31, …), d/4, d/2 and d − 1;
// repeated until nothing shrinks.
ShrinkResult shrink_failure(const Shape &start, const std::function<bool(const Shape &)> &fails, int max_attempts = 80);

// What the thresholds suggest about the kernel, e.g. "fails once N passes a multiple of
// 16 (N = 16 passes, N = 17 fails): the reduction loop's partial tile".
std::string describe_thresholds(const ShrinkResult &result);

} // namespace gemm
