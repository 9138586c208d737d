#include "core/empty_call.hpp"
#include "core/text.hpp"

#include <algorithm>

namespace gemm {

namespace {

constexpr int tries = 3;

const EmptyCall &fastest(const std::vector<EmptyCall> &after) {
    return *std::min_element(after.begin(), after.end(),
                             [](const EmptyCall &a, const EmptyCall &b) { return a.median_ms < b.median_ms; });
}

bool past_tolerance(const EmptyCall &before, const EmptyCall &now) {
    return now.median_ms > before.median_ms + busy_gpu_tolerance_ms(before);
}

} // namespace

double busy_gpu_tolerance_ms(const EmptyCall &before) {
    return std::max({0.5, before.median_ms, 10 * before.spread_ms});
}

bool wants_another_try(const std::optional<EmptyCall> &before, const std::vector<EmptyCall> &after) {
    return before && !after.empty() && static_cast<int>(after.size()) < tries && past_tolerance(*before, fastest(after));
}

EmptyCallDecision settle_empty_call(const std::optional<EmptyCall> &before, const std::vector<EmptyCall> &after) {
    EmptyCallDecision d;
    const EmptyCall &now = fastest(after);
    if (!before) {
        d.used = now;
        d.used.measured_before_solution = false;
        return d;
    }
    if (past_tolerance(*before, now)) {
        d.gpu_kept_busy = true;
        d.why = formatted("work was still running on the GPU after solve() returned: an empty call took %.3f ms "
                          "after its calls, %.3f ms before it was loaded",
                          now.median_ms, before->median_ms);
    }
    d.used = now.median_ms < before->median_ms ? now : *before;
    d.used.measured_before_solution = !(now.median_ms < before->median_ms);
    return d;
}

} // namespace gemm
