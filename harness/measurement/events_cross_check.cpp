#include "measurement/events_cross_check.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <cmath>

namespace gemm {

namespace {

// What "agree" allows: today's in-process events were the judge's clock before the
// referee, and the new clock is held to them within 1% or the offset's spread.
constexpr double relative_tolerance = 0.01;

} // namespace

std::optional<EventsCrossCheck> cross_check_events(const TimedRun &run) {
    if (!run.own_events_ms || run.stats.samples == 0) return std::nullopt;
    EventsCrossCheck c;
    c.clock_ms = run.stats.median_ms;
    c.events_ms = *run.own_events_ms;
    c.tolerance_ms = std::max(relative_tolerance * c.events_ms, run.empty_call.spread_in_solution_process_ms());
    c.agree = std::fabs(c.difference_ms()) <= c.tolerance_ms;
    return c;
}

std::string describe(const EventsCrossCheck &c) {
    const double percent = c.events_ms > 0 ? 100.0 * c.difference_ms() / c.events_ms : 0;
    return formatted("clock %.3f ms, own events %.3f ms (%+.1f µs, %+.1f%%; allowed ±%.1f µs)", c.clock_ms, c.events_ms,
                     1e3 * c.difference_ms(), percent, 1e3 * c.tolerance_ms);
}

} // namespace gemm
