// Whether the referee's clock and the runner's own CUDA events tell the same time for a
// case. The referee's time is the one believed; the
// events are what an in-process judge would have timed (and, for the solution, what the
// solution's process says), so they are compared and a disagreement is reported, never
// used. Pure logic on measured figures, tested on synthetic ones.
#pragma once

#include "measurement/timed_run.hpp"

#include <optional>
#include <string>

namespace gemm {

struct EventsCrossCheck {
    double clock_ms = 0;  // the referee's median, the empty call taken off
    double events_ms = 0; // the runner's own events, median
    // The larger of 1% of the events and the offset's spread (the empty call's or the
    // calibration calls'), counting how far the path's cost moved into the solution's process
    // where its calibration calls were made there too (EmptyCall::spread_in_solution_process_ms).
    double tolerance_ms = 0;
    bool agree = true;
    // clock − events: positive when the stamps saw more than the events (work on streams
    // the events do not cover, or a cost of the path the empty call does not pay).
    double difference_ms() const { return clock_ms - events_ms; }
};

// Nothing to compare when the runner sent no figures.
std::optional<EventsCrossCheck> cross_check_events(const TimedRun &run);

// "clock 2.801 ms, own events 2.716 ms (+85.0 µs, +3.1%; allowed ±27.2 µs)": on a call of a
// few µs the percentage alone would alarm, the µs and the tolerance say how far off it is.
std::string describe(const EventsCrossCheck &c);

} // namespace gemm
