#include "measurement/offset_rule.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <cmath>

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

// One kind's settled cost, as a run's report lists it beside the cost taken off.
CalibrationCost listed(CalibrationKind kind, const EmptyCall &settled) {
    return {calibration_kind_name(kind), settled.median_ms, settled.spread_ms, settled.samples, settled.capped};
}

} // namespace

double busy_gpu_tolerance_ms(const EmptyCall &before) {
    return std::max({0.5, before.median_ms, 10 * before.spread_ms});
}

bool wants_another_try(const std::optional<EmptyCall> &before, const std::vector<EmptyCall> &after) {
    return before && !after.empty() && static_cast<int>(after.size()) < tries &&
           past_tolerance(*before, fastest(after));
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

double calibration_length_ms(double raw_median_ms, const EmptyCall &empty) {
    return std::max(0.0, raw_median_ms - empty.median_ms);
}

bool wants_calibration(double length_ms) { return length_ms >= 0.05; }

int calibration_calls(double length_ms) {
    constexpr double budget_ms = 12; // per run, on top of the run's own calls
    const double each_ms = length_ms + 0.5;
    return std::clamp(static_cast<int>(std::ceil(budget_ms / each_ms)), 3, 11); // 3: one outlier cannot move it
}

double calibration_excess_cap_ms(double length_ms) { return 0.02 * length_ms + 0.03; }

EmptyCall settle_calibration(const EmptyCall &empty, const EmptyCall &calibration, double length_ms) {
    EmptyCall used = calibration;
    used.stands_in_for_ms = length_ms;
    used.empty_median_ms = empty.median_ms;
    used.measured_before_solution = empty.measured_before_solution;
    const double cap_ms = empty.median_ms + calibration_excess_cap_ms(length_ms);
    used.capped = calibration.median_ms > cap_ms;
    if (used.capped) used.median_ms = cap_ms;
    return used;
}

std::vector<CalibrationKind> calibration_kinds(double length_ms) {
    if (length_ms >= 3.0) return {CalibrationKind::Light};
    return {every_calibration_kind.begin(), every_calibration_kind.end()};
}

EmptyCall settle_calibrations(const EmptyCall &empty,
                              const std::vector<std::pair<CalibrationKind, EmptyCall>> &measured, double length_ms) {
    if (measured.empty()) return empty;
    if (measured.size() == 1) return settle_calibration(empty, measured.front().second, length_ms);
    EmptyCall used =
        settle_calibration(empty, measured.front().second, length_ms); // its phases and events describe the call
    double least = used.median_ms, most = used.median_ms, widest = used.spread_ms;
    used.capped = false;
    for (const auto &[kind, cost] : measured) {
        const EmptyCall settled = settle_calibration(empty, cost, length_ms);
        used.calibrations.push_back(listed(kind, settled));
        least = std::min(least, settled.median_ms);
        most = std::max(most, settled.median_ms);
        widest = std::max(widest, settled.spread_ms);
        used.capped = used.capped || settled.capped;
    }
    used.median_ms = (least + most) / 2;
    used.spread_ms = std::max(widest, (most - least) / 2);
    return used;
}

EmptyCall settle_interleaved_calibration(const EmptyCall &empty, const EmptyCall &pooled,
                                         const std::vector<std::pair<CalibrationKind, EmptyCall>> &by_kind,
                                         double length_ms, const std::optional<EmptyCall> &in_solution_process) {
    EmptyCall used = settle_calibration(empty, pooled, length_ms);
    for (const auto &[kind, cost] : by_kind)
        used.calibrations.push_back(listed(kind, settle_calibration(empty, cost, length_ms)));
    used.interleaved = true;
    // Against the baseline's measured cost, not the capped one: the two processes' paths
    // are what is compared.
    if (in_solution_process) {
        used.solution_process_excess_ms = in_solution_process->median_ms - pooled.median_ms;
        used.solution_process_samples = in_solution_process->samples;
    }
    return used;
}

} // namespace gemm
