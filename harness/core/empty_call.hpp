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

#include "core/case_result.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm {

// How much more than `before` a measurement after the calls may cost and still be noise.
double busy_gpu_tolerance_ms(const EmptyCall &before);

// Another try is wanted: every try so far is past the tolerance, and fewer than three were made.
bool wants_another_try(const std::optional<EmptyCall> &before, const std::vector<EmptyCall> &after);

struct EmptyCallDecision {
    EmptyCall used;         // the one to take off (measured_before_solution says which)
    bool gpu_kept_busy = false;
    std::string why;        // when kept busy: the figures, in words
};

// `after` holds at least one try; `before` is empty when the shape was not measured
// before the solution was loaded.
EmptyCallDecision settle_empty_call(const std::optional<EmptyCall> &before, const std::vector<EmptyCall> &after);

} // namespace gemm
