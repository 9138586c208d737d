// The cross-check of the referee's clock against the runner's own CUDA events, on
// synthetic figures: the phases' and the events' medians, when they agree, and that a
// runner's figure is compared and reported but never becomes the time.
#include <doctest/doctest.h>

#include "measurement/events_cross_check.hpp"
#include "measurement/sampling.hpp"

using namespace gemm;

namespace {

CallSample timed(double ms, std::optional<double> own_events_ms) {
    CallSample s;
    s.ms = ms;
    s.phases.total_ms = ms;
    s.phases.hand_out_ms = 0.1;
    s.phases.runner_turn_ms = ms - 0.15;
    s.phases.snapshot_ms = 0.05;
    s.own_events_ms = own_events_ms;
    return s;
}

TimedRun run_of(const std::vector<CallSample> &samples, double empty_call_ms, double spread_ms) {
    Sampler sampler(SamplingRule{0, 1, 100, 0});
    for (const auto &s : samples) sampler.record(s);
    TimedRun run = sampler.result();
    EmptyCall empty;
    empty.median_ms = empty_call_ms;
    empty.spread_ms = spread_ms;
    empty.samples = 7;
    subtract_empty_call(run, empty);
    return run;
}

} // namespace

TEST_CASE("each phase's median and the runner's own median are kept beside the samples") {
    const TimedRun run = run_of({timed(3.0, 2.5), timed(3.2, 2.7), timed(3.1, 2.6)}, 0.5, 0.01);
    CHECK(run.median_phases.total_ms == doctest::Approx(3.1));
    CHECK(run.median_phases.runner_turn_ms == doctest::Approx(2.95));
    CHECK(run.median_phases.hand_out_ms == doctest::Approx(0.1));
    REQUIRE(run.own_events_ms);
    CHECK(*run.own_events_ms == doctest::Approx(2.6));
    CHECK(run.own_events_samples_ms == std::vector<double>{2.5, 2.7, 2.6}); // call by call, in call order
}

TEST_CASE("a runner that sends its figure only sometimes has no median to compare") {
    const TimedRun run = run_of({timed(3.0, 2.5), timed(3.2, std::nullopt), timed(3.1, 2.6)}, 0.5, 0.01);
    CHECK_FALSE(run.own_events_ms);
    CHECK(run.own_events_samples_ms.empty());
    CHECK_FALSE(cross_check_events(run));
}

TEST_CASE("the clock and the events agree within 1% of the events") {
    const TimedRun run = run_of({timed(3.1, 2.6)}, 0.5, 0.001); // clock 2.6 after the empty call
    const auto check = cross_check_events(run);
    REQUIRE(check);
    CHECK(check->agree);
    CHECK(check->clock_ms == doctest::Approx(2.6));
    CHECK(check->tolerance_ms == doctest::Approx(0.026));
}

TEST_CASE("past 1% and the offset's spread they disagree, and the text gives both figures") {
    // A tail left on a stream the events do not cover: the clock saw 5% more.
    const TimedRun run = run_of({timed(3.23, 2.6)}, 0.5, 0.002);
    const auto check = cross_check_events(run);
    REQUIRE(check);
    CHECK_FALSE(check->agree);
    CHECK(describe(*check) == "clock 2.730 ms, own events 2.600 ms (+130.0 µs, +5.0%; allowed ±26.0 µs)");
}

TEST_CASE("the offset's spread widens the tolerance where 1% is smaller") {
    const TimedRun run = run_of({timed(0.56, 0.03)}, 0.5, 0.04); // clock 0.06, events 0.03
    const auto check = cross_check_events(run);
    REQUIRE(check);
    CHECK(check->tolerance_ms == doctest::Approx(0.04));
    CHECK(check->agree);
}

TEST_CASE("how far the path's cost moved into the solution's process widens the tolerance, and moves no time") {
    // rung 11 at 2048³ on the H200 (run S3): clock 2 µs over its events, 1% of them 1.83 µs,
    // the calibration calls' spread 1 µs; in the solution's process they cost 1.5 µs more.
    TimedRun run = run_of({timed(0.52122, 0.18322)}, 0.336, 0.001);
    const auto without = cross_check_events(run);
    REQUIRE(without);
    CHECK(without->tolerance_ms == doctest::Approx(0.0018322));
    CHECK_FALSE(without->agree);
    run.empty_call.solution_process_excess_ms = 0.0015;
    const auto with = cross_check_events(run);
    REQUIRE(with);
    CHECK(with->tolerance_ms == doctest::Approx(0.0025));
    CHECK(with->agree);
    CHECK(with->clock_ms == doctest::Approx(0.18522));   // the time is the clock's, as before
    run.empty_call.solution_process_excess_ms = -0.0015; // cheaper there: as far the other way
    CHECK(cross_check_events(run)->agree);
}

TEST_CASE("a runner's figure never changes the time: a claim of zero leaves the median as measured") {
    const TimedRun run = run_of({timed(3.1, 0.0), timed(3.1, 0.0), timed(3.1, 0.0)}, 0.5, 0.001);
    CHECK(run.stats.median_ms == doctest::Approx(2.6));
    const auto check = cross_check_events(run);
    REQUIRE(check);
    CHECK_FALSE(check->agree);
}
