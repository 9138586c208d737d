// Which of a run's cases its score is over: only a run whose every case is AC has one, since
// a WA's time means nothing. The figures themselves are measurement/score.hpp's.
#pragma once

#include "measurement/score.hpp"
#include "verification/case_result.hpp"

#include <optional>
#include <vector>

namespace gemm {

// Every timed case of a run as a shape with its times; none unless every case is AC.
std::optional<std::vector<TimedShape>> accepted_timed_shapes(const std::vector<CaseResult> &results);

// The highest SM clock read during the run's timed calls; the device's maximum when none.
int sm_clock_during_run(const std::vector<CaseResult> &results, const DeviceInfo &device);

// The score over every timed case. None unless every case is AC and at least one was timed.
std::optional<Score> score_of(const std::vector<CaseResult> &results, const DeviceInfo &device);

// The score a judge run is remembered by (the history): over only the cases timed against
// cuBLAS (the perf cases by default, --baseline), so that it is in a rank run's unit, cuBLAS
// time / yours, and not a geometric-mean time that the 1×1×1 cases dominate. None unless
// every case is AC and at least one was timed against cuBLAS.
std::optional<Score> score_against_cublas(const std::vector<CaseResult> &results, const DeviceInfo &device);

} // namespace gemm
