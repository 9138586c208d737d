// measurement/time_resolution: how finely one run can tell a time, on synthetic runs.
#include "measurement/time_resolution.hpp"

#include <doctest/doctest.h>

using namespace gemm;

namespace {

TimedRun run_of(double median_ms, double q1_ms, double q3_ms, int samples = 10) {
    TimedRun run;
    run.stats.samples = samples;
    run.stats.median_ms = median_ms;
    run.stats.q1_ms = q1_ms;
    run.stats.q3_ms = q3_ms;
    return run;
}

} // namespace

TEST_CASE("a short call's resolution is the path's run-to-run drift, however tight its calls") {
    CHECK(time_resolution_ms(run_of(0.02, 0.02, 0.02)) == doctest::Approx(0.010));
}

TEST_CASE("the widest of the offset's spread, the median's error and the relative drift wins") {
    auto offset = run_of(0.3, 0.3, 0.3);
    offset.empty_call.spread_ms = 0.02;
    offset.empty_call.solution_process_excess_ms = -0.015; // the path moved into the solution's process
    CHECK(time_resolution_ms(offset) == doctest::Approx(0.035));
    const auto scattered = run_of(1.0, 0.8, 1.2, 16); // IQR 0.4 over 16 calls
    CHECK(time_resolution_ms(scattered) == doctest::Approx(0.929 * 0.4 / 4));
    CHECK(time_resolution_ms(run_of(40.0, 40.0, 40.0)) == doctest::Approx(0.2)); // 0.5%
}

TEST_CASE("below three resolutions a time is a bound on a 1-2-5 step") {
    auto t = resolve_time(0.023, 0.01);
    CHECK(t.kind == ResolvedTime::Kind::Below);
    CHECK(t.bound_ms == doctest::Approx(0.05));
    CHECK(resolve_time(0.05, 0.02).bound_ms == doctest::Approx(0.1));
    CHECK(resolve_time(0.001, 0.0004).bound_ms == doctest::Approx(0.002));
}

TEST_CASE("a time resolved to worse than 2% carries its resolution, to one digit") {
    const auto t = resolve_time(0.51, 0.065);
    CHECK(t.kind == ResolvedTime::Kind::WithError);
    CHECK(t.resolution_ms == doctest::Approx(0.07));
    CHECK(t.decimals_in(1) == 2);
}

TEST_CASE("a time resolved to 2% or better ends at the digit its resolution moves by one unit at most") {
    auto t = resolve_time(17.03, 0.085);
    CHECK(t.kind == ResolvedTime::Kind::Plain);
    CHECK(t.decimals_in(1) == 1);
    CHECK(resolve_time(1.5, 0.01).decimals_in(1) == 2);
    CHECK(resolve_time(50.8, 0.25).decimals_in(1) == 0);
    CHECK(resolve_time(1234, 6).decimals_in(1000) == 2); // "1.23 s"
}

TEST_CASE("a rate derived from a time gets as many significant digits as the time") {
    CHECK(significant_digits(10, 0.05) == 3);
    CHECK(significant_digits(1, 0.03) == 2);
    CHECK(significant_digits(1, 0.5) == 1);
    CHECK(significant_digits(100, 0.001) == 4);
}
