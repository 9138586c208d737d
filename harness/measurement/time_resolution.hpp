// How finely one run can tell a time: the half-width within which its median may move when
// the same solution is judged again. A report prints a time only to that resolution ("show
// no digit the measurement cannot vouch for"), and below it says so ("< 0.05 ms").
//
// What moves a median between runs, each a lower bound on the resolution:
//  - the path's cost that is taken off every time (measurement/offset_rule.hpp) is measured in this
//    run, but what it really cost the solution's process differs by a few µs, a different
//    few in each run (docs/timing.md, "What the clock cannot see"); path_drift_ms is that
//    floor, and this run's own offset spread (in the solution's process, where its calibration calls
//    were made there too) counts when it is wider;
//  - the calls' own scatter: the median's standard error, from the interquartile range;
//  - clocks and power between runs: relative_drift of the time itself.
#pragma once

#include "measurement/timed_run.hpp"

#include <string>

namespace gemm {

struct TimeResolutionRule {
    double path_drift_ms = 0.010;  // run-to-run movement of the path's cost (docs/timing.md)
    double relative_drift = 0.005; // a long kernel's median between runs
};

// The resolution of a run's median, in ms: the largest of the terms above.
double time_resolution_ms(const TimedRun &run, const TimeResolutionRule &rule = {});

// A time as the run can tell it.
struct ResolvedTime {
    enum class Kind {
        Below,     // under what the run resolves: "< bound_ms"
        WithError, // resolved, but to less than 2%: "value ± resolution"
        Plain,     // resolved to 2% or better: "value"
    };
    Kind kind = Kind::Plain;
    double value_ms = 0;
    double resolution_ms = 0;              // WithError: rounded up to one significant digit
    double bound_ms = 0;                   // Below: the bound said ("< 0.05 ms"), a 1-2-5 value
    int place_exponent = 0;                // the last digit shown is that of 10^place_exponent ms
    int decimals_in(double unit_ms) const; // digits after the point in that unit (1: ms, 1000: s)
};

// A time of `value_ms` with `resolution_ms`: below three resolutions it is not told apart
// from nothing; resolved to less than 2% it is shown with the resolution, to one significant
// digit, and the value to the same place; otherwise alone, to the place the resolution moves
// by at most one unit (17.03 ms ± 0.085 → "17.0 ms").
ResolvedTime resolve_time(double value_ms, double resolution_ms);

// The time as every front end prints it — the console's table, the JSON report's
// `time_text` (which the page, batch and history show as it is): "< 0.05 ms",
// "0.20 ± 0.01 ms", "17.0 ms", "1.23 s".
std::string time_text(const ResolvedTime &time);
// The median of a run as told at the run's own resolution.
std::string time_text(const TimedRun &run);

// How many significant digits a figure derived from the time (a rate) may show: as many as
// its relative resolution allows, 1 to 4.
int significant_digits(double value_ms, double resolution_ms);

} // namespace gemm
