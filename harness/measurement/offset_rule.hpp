// Which empty-call cost to take off a case's times, and whether the GPU was kept busy
// after the solution's calls: a pure rule on measured figures, tested on synthetic ones
// (the referee feeds it real calls: referee/case_referee.cpp). The cost is measured twice,
// by a process that never loaded the solution: before the solution's process existed and
// after its calls. Idle clocks can only have made the first too large, work the solution
// left running only the second, so the smaller never takes off more than the path costs.
// Still far more after than before, in every try, means the solution kept the GPU busy (a
// context that keeps a kernel running costs the others whole time slices, milliseconds); a
// busy host costs a fraction of a millisecond, and one slow try is noise.
#pragma once

#include "measurement/calibration_kind.hpp"
#include "measurement/timed_run.hpp"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gemm {

// How much more than `before` a measurement after the calls may cost and still be noise.
double busy_gpu_tolerance_ms(const EmptyCall &before);

// Another try is wanted: every try so far is past the tolerance, and fewer than three were made.
bool wants_another_try(const std::optional<EmptyCall> &before, const std::vector<EmptyCall> &after);

struct EmptyCallDecision {
    EmptyCall used; // the one to take off (measured_before_solution says which)
    bool gpu_kept_busy = false;
    std::string why; // when kept busy: the figures, in words
};

// `after` holds at least one try; `before` is empty when the shape was not measured
// before the solution was loaded.
EmptyCallDecision settle_empty_call(const std::optional<EmptyCall> &before, const std::vector<EmptyCall> &after);

// What a call costs beyond its own work grows with the work's length (in the switch into the
// runner's context and in the switch back, whatever the kernel does; docs/perf-notes.md has
// the figures), so the cost taken off a run is measured by a calibration call of the run's own
// length: the baseline runner's kernel reading A and B, busy for that long, then writing C
// (RunnerWork::Calibration).
// The length: the run's raw median less the empty call, never below 0.
double calibration_length_ms(double raw_median_ms, const EmptyCall &empty);
// Below 0.05 ms the length adds nothing measurable: the empty call stands in.
bool wants_calibration(double length_ms);
// How many calibration calls: enough for a stable median on short runs, three on long ones,
// whose calls scatter with a rare outlier (the calibration call costs about its length a call: at
// most ~3 lengths + 12 ms a run).
int calibration_calls(double length_ms);
// How far above the empty call a calibration call's cost may go: the most the length can explain
// (2% of it + 30 µs, twice what was seen at every length: docs/perf-notes.md); beyond it a busy GPU,
// not the length, would be speaking, and the cap is what is taken off.
double calibration_excess_cap_ms(double length_ms);
// The cost to take off: the calibration call's, capped; it carries the empty call's figures beside it.
EmptyCall settle_calibration(const EmptyCall &empty, const EmptyCall &calibration, double length_ms);

// Which kinds stand in for a run of this length. Below 3 ms every kind: there 1% of a call
// is less than what the path's cost differs by between kinds of work of one length
// (docs/perf-notes.md), so one kind's cost would claim more than is known. From 3 ms the light one
// alone (the kinds' differences stay under 1% of such a call).
std::vector<CalibrationKind> calibration_kinds(double length_ms);
// Several kinds: each capped as settle_calibration caps it; the cost taken off is the middle
// of their range and its spread at least half the range (the largest of their own spreads
// if that is more), so a kernel whose path costs what any kind's does lies within the
// spread. One kind: settle_calibration.
EmptyCall settle_calibrations(const EmptyCall &empty,
                              const std::vector<std::pair<CalibrationKind, EmptyCall>> &measured, double length_ms);
// Calibration calls made between the run's calls (measurement/interleaved_calibration.hpp): their pooled
// cost, capped as one calibration call is, is taken off, and its spread is theirs; each kind's is
// listed beside it, capped on its own. in_solution_process: the same turns made in the
// solution's process, when enough were; what they cost beyond the baseline's pooled cost
// is kept beside (EmptyCall::solution_process_excess_ms), never taken off.
EmptyCall settle_interleaved_calibration(const EmptyCall &empty, const EmptyCall &pooled,
                                         const std::vector<std::pair<CalibrationKind, EmptyCall>> &by_kind,
                                         double length_ms,
                                         const std::optional<EmptyCall> &in_solution_process = std::nullopt);

} // namespace gemm
