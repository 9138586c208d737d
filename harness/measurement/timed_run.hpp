// What the referee's clock measured of a case's timed calls: every call's time and phases,
// the offset taken off (the empty call, or the calibration calls of measurement/offset_rule.hpp),
// and the summary the report prints.
#pragma once

#include "measurement/stats.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

// One call by the referee's stamps (referee/trusted_clock.hpp), whole and by phase, so
// the judge's own cost shows next to the runner's.
struct CallClock {
    double total_ms = 0;       // start stamp to stop stamp: the time believed
    double hand_out_ms = 0;    // the inputs copied into the runner's memory
    double runner_turn_ms = 0; // from then until the referee's stream ran again after "returned"
    double snapshot_ms = 0;    // C copied out for the checks
};

// One kind of calibration call's cost (measurement/calibration_kind.hpp), when several stood in for a run.
struct CalibrationCost {
    std::string kind; // calibration_kind_name
    double median_ms = 0, spread_ms = 0;
    int samples = 0;
    bool capped = false; // its excess over the empty call was more than the length explains
};

// The cost of an empty call of solve() through the same path (the referee's stamps,
// the inputs handed out, the runner told and answering, the snapshot of C), which is
// taken off every time, less the empty call's own work on the GPU (it writes C, as every
// call must). Measured by a runner that never loaded the solution.
struct EmptyCall {
    double median_ms = 0, spread_ms = 0; // spread: q3 − q1 of its samples
    int samples = 0;
    bool measured_before_solution = false; // else after the solution's calls, when that was smaller
    CallClock median_phases{};             // each phase's median over its samples
    std::optional<double> own_events_ms{}; // the baseline runner's CUDA events around its work (C's memset), median
    // Set when this is a calibration call's cost (measurement/offset_rule.hpp): the length it stood in for,
    // the plain empty call's median beside it, and whether its excess over that was capped.
    std::optional<double> stands_in_for_ms{};
    double empty_median_ms = 0; // with stands_in_for_ms: the plain empty call's median
    bool capped = false;
    // A short run's calibration calls of every kind (measurement/calibration_kind.hpp), when more than one
    // stood in. Made after the run: median_ms is the middle of their range, spread_ms at
    // least half of it; made between its calls: median_ms and spread_ms are of them all.
    std::vector<CalibrationCost> calibrations{};
    bool interleaved =
        false; // the calibration calls were made between the run's own calls (measurement/interleaved_calibration.hpp)
    // A solution's run with interleaved calibration calls: the same turns made in the solution's own
    // process too, and what they cost there less what they cost in the baseline's (medians).
    // The path's cost belongs to the process that makes the call (a few µs apart, a
    // different few in each run: docs/perf-notes.md), so this is how far the offset moves on its way into the
    // solution's process. That process is not trusted (it could slow them down), so this
    // is never taken off a time: it only widens the offset's spread where the clock is
    // held against the solution's own events (measurement/events_cross_check.hpp).
    std::optional<double> solution_process_excess_ms{};
    int solution_process_samples = 0;
    // The offset's spread as it applies to the solution's calls: its own, plus how far the
    // path's cost moved into the solution's process.
    double spread_in_solution_process_ms() const {
        return spread_ms + std::fabs(solution_process_excess_ms.value_or(0));
    }
};

struct TimedRun {
    TimingSummary stats;
    std::vector<double> samples_ms;     // the kept samples behind stats, in call order (significance tests)
    std::vector<double> raw_samples_ms; // the same before the empty call was taken off
    EmptyCall empty_call;
    CallClock median_phases; // each phase's median over the kept samples, raw
    // What the runner's own CUDA events measured around the call, in its process, median
    // over the kept samples: a cross-check only. For the solution it is the solution's
    // process speaking, so it is reported and compared, never used as a time.
    std::optional<double> own_events_ms;
    // The same call by call, beside samples_ms (empty unless every kept call had one):
    // runs pooled over rounds pool these too, so that both are summarized alike.
    std::vector<double> own_events_samples_ms;
    int sm_clock_mhz = 0;                // read right after the timed calls
    int throttled_samples = 0;           // discarded: the GPU reported a thermal or hardware slowdown
    bool throttled_samples_used = false; // every sample was throttled, so they were kept
};

} // namespace gemm
