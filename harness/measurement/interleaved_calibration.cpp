#include "measurement/interleaved_calibration.hpp"
#include "measurement/offset_rule.hpp"
#include "measurement/stats.hpp"

#include <algorithm>
#include <cmath>

namespace gemm {

// One turn every `period` calls, so that a run of the expected number of calls makes about
// `wanted_turns`; at most one for every two calls.
int InterleavedCalibration::period() const {
    const double median_ms = summarize(raw_ms_).median_ms;
    double expected = rule_.max_samples;
    if (median_ms > 0) expected = std::min(expected, rule_.budget_s * 1e3 / median_ms);
    expected = std::max(expected, static_cast<double>(rule_.min_samples));
    return std::max(2, static_cast<int>(std::lround(expected / wanted_turns)));
}

std::optional<CalibrationTurn> InterleavedCalibration::after_call(double raw_ms) {
    raw_ms_.push_back(raw_ms);
    if (++calls_since_calibration_ < period()) return std::nullopt;
    calls_since_calibration_ = 0;
    const double length_ms = std::max(0.0, summarize(raw_ms_).median_ms - empty_ms_);
    if (!wants_calibration(length_ms) || calibration_kinds(length_ms).size() < 2) return std::nullopt;
    CalibrationTurn turn;
    turn.length_ms = length_ms;
    turn.kind = every_calibration_kind[turns_++ % every_calibration_kind.size()];
    return turn;
}

void InterleavedCalibration::record(const CalibrationTurn &turn, double cost_ms) {
    costs_.emplace_back(turn.kind, cost_ms);
    lengths_ms_.push_back(turn.length_ms);
}

void InterleavedCalibration::record_in_solution_process(double cost_ms) { solution_process_costs_.push_back(cost_ms); }

namespace {

EmptyCall cost_of(const std::vector<double> &ms) {
    const TimingSummary s = summarize(ms);
    EmptyCall e;
    e.median_ms = s.median_ms;
    e.spread_ms = s.q3_ms - s.q1_ms;
    e.samples = s.samples;
    return e;
}

} // namespace

EmptyCall InterleavedCalibration::pooled() const {
    std::vector<double> ms;
    for (const auto &[kind, cost] : costs_) ms.push_back(cost);
    return cost_of(ms);
}

std::optional<EmptyCall> InterleavedCalibration::pooled_in_solution_process() const {
    if (static_cast<int>(solution_process_costs_.size()) < enough) return std::nullopt;
    return cost_of(solution_process_costs_);
}

std::vector<std::pair<CalibrationKind, EmptyCall>> InterleavedCalibration::measured() const {
    std::vector<std::pair<CalibrationKind, EmptyCall>> by_kind;
    if (!enough_made()) return by_kind;
    for (CalibrationKind kind : every_calibration_kind) {
        std::vector<double> ms;
        for (const auto &[k, cost] : costs_)
            if (k == kind) ms.push_back(cost);
        if (!ms.empty()) by_kind.emplace_back(kind, cost_of(ms));
    }
    return by_kind;
}

double InterleavedCalibration::length_ms() const { return lengths_ms_.empty() ? 0 : summarize(lengths_ms_).median_ms; }

} // namespace gemm
