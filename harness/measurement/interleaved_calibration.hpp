// Calibration calls interleaved with a short run's own calls. A run's path cost (what a call
// costs beyond its own work) moves between batches of calls a fraction of a second apart
// (the two rounds of one rank shape, a batch of calibration calls measured after the run) by more
// than 1% of a call under 3 ms (docs/perf-notes.md). Calibration calls made between the run's own
// calls see the same moments as the run, so what they cost is what the run's calls paid.
// Pure rule on measured figures: the referee makes the calls (referee/case_referee.cpp).
#pragma once

#include "measurement/calibration_kind.hpp"
#include "measurement/sampling.hpp"
#include "measurement/timed_run.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace gemm {

struct CalibrationTurn {
    double length_ms =
        0; // how long the calibration call keeps the SMs busy: the run's median so far, less the empty call
    CalibrationKind kind = CalibrationKind::Light;
    // Calls in a row, the first of which is not kept: a call in the other runner's process
    // after the run's calls costs more than the next one (docs/perf-notes.md), while the run's
    // own calls follow each other; the rest are kept.
    int calls = 3;
};

class InterleavedCalibration {
  public:
    // About this many turns a run, the kinds taken in turn: two of each kind, four kept calls each.
    static constexpr int wanted_turns = 6;
    // Fewer kept calls than this and the run falls back to a batch of calibration calls after its calls.
    static constexpr int enough = 6;

    // empty_ms: the shape's empty call measured before the run (its length is the run's
    // time less it); rule: the run's sampling rule, which says how many calls it will make.
    InterleavedCalibration(double empty_ms, const SamplingRule &rule) : empty_ms_(empty_ms), rule_(rule) {}

    // After each of the run's timed calls (warm-ups excluded), its raw time: the calibration call
    // to make now, if one is due. None for runs of 3 ms or more (1% of such a call covers
    // the path's movements; the light calibration call after the run stands in) or under 0.05 ms.
    std::optional<CalibrationTurn> after_call(double raw_ms);
    // What a kept calibration call of the turn cost beyond its own work.
    void record(const CalibrationTurn &turn, double cost_ms);
    // The same turn made again in the solution's own process (a solution's run): what a
    // kept call of it cost there. Compared, never taken off (that process is not trusted).
    void record_in_solution_process(double cost_ms);

    // Whether enough were kept to stand in (else a batch after the run does).
    bool enough_made() const { return static_cast<int>(costs_.size()) >= enough; }
    // Every kept call's cost together: what the run's calls paid (its median and spread),
    // the kinds pooled, since a kind's four calls are too few for a median of their own.
    EmptyCall pooled() const;
    // The solution's process's kept calls pooled alike; none when fewer than `enough`.
    std::optional<EmptyCall> pooled_in_solution_process() const;
    // The same a kind at a time, shown beside it (how far the kinds' costs lie apart);
    // none when too few were made. length_ms: the median length they stood in for.
    std::vector<std::pair<CalibrationKind, EmptyCall>> measured() const;
    double length_ms() const;

  private:
    int period() const;

    double empty_ms_;
    SamplingRule rule_;
    std::vector<double> raw_ms_;
    int calls_since_calibration_ = 0;
    std::vector<std::pair<CalibrationKind, double>> costs_;
    std::vector<double> solution_process_costs_;
    std::vector<double> lengths_ms_;
    int turns_ = 0;
};

} // namespace gemm
