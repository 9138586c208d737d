// Calibration calls between a run's calls (measurement/interleaved_calibration.hpp) on synthetic figures:
// when one is due, how long and of which kind, and when there are too few to use.
#include "measurement/interleaved_calibration.hpp"

#include <doctest/doctest.h>

using namespace gemm;

namespace {

SamplingRule rule(double budget_s, int max_samples) {
    SamplingRule r;
    r.budget_s = budget_s;
    r.max_samples = max_samples;
    return r;
}

// Feeds `calls` calls of raw_ms each, and a cost of 0.40 ms for each kept call of every
// turn that comes due; returns the turns.
std::vector<CalibrationTurn> feed(InterleavedCalibration &between, int calls, double raw_ms) {
    std::vector<CalibrationTurn> turns;
    for (int i = 0; i < calls; ++i)
        if (const auto turn = between.after_call(raw_ms)) {
            turns.push_back(*turn);
            for (int kept = 1; kept < turn->calls; ++kept) between.record(*turn, 0.40);
        }
    return turns;
}

// Feeds 0.75 ms calls until the six costs have been recorded as the kept calls of turns.
int record_costs(InterleavedCalibration &between, const double (&costs)[6]) {
    int made = 0;
    for (int i = 0; i < 200 && made < 6; ++i)
        if (const auto turn = between.after_call(0.75))
            for (int kept = 1; kept < turn->calls && made < 6; ++kept) between.record(*turn, costs[made++]);
    return made;
}

} // namespace

TEST_CASE(
    "a run of 100 short calls gets five or six turns of three stand-ins, the kinds in turn, each the run's length") {
    // 2048³ on the H200: 0.38 ms of work, 0.37 ms of path: 0.75 ms raw, 100 calls in 0.3 s.
    InterleavedCalibration between(0.37, rule(0.3, 100));
    const auto turns = feed(between, 100, 0.75);
    CHECK(turns.size() >= 5);
    CHECK(turns.size() <= 6);
    REQUIRE(turns.size() >= 3);
    CHECK(turns[0].kind == CalibrationKind::Light);
    CHECK(turns[1].kind == CalibrationKind::SharedMemory);
    CHECK(turns[2].kind == CalibrationKind::Streaming);
    CHECK(turns[0].calls == 3); // the first pays for the change of process and is not kept
    CHECK(turns[0].length_ms == doctest::Approx(0.38));
    const auto measured = between.measured();
    REQUIRE(measured.size() == 3);
    for (const auto &[kind, cost] : measured) {
        CHECK(cost.median_ms == doctest::Approx(0.40));
        CHECK(cost.samples >= 2);
    }
    CHECK(between.length_ms() == doctest::Approx(0.38));
}

TEST_CASE("a run whose budget buys few calls still gets its turns, one every other call at most") {
    // 3.1 ms raw calls in 0.1 s: about 32 calls, so a turn every 5.
    InterleavedCalibration between(0.4, rule(0.1, 100));
    CHECK(feed(between, 32, 3.1).size() == 6);
    InterleavedCalibration tiny(0.4, rule(0.001, 100));
    CHECK(feed(tiny, 10, 2.0).size() == 5);
}

TEST_CASE("runs of 3 ms or more and runs under 0.05 ms get none between their calls") {
    InterleavedCalibration long_run(0.45, rule(0.3, 100));
    CHECK(feed(long_run, 100, 3.5).empty());
    CHECK(long_run.measured().empty());
    InterleavedCalibration empty_like(0.35, rule(0.3, 100));
    CHECK(feed(empty_like, 100, 0.38).empty());
}

TEST_CASE("too few kept stand-ins are not used: the run falls back to a batch after its calls") {
    InterleavedCalibration between(0.37, rule(0.3, 100));
    const auto turns = feed(between, 30, 0.75); // one turn, two kept calls
    REQUIRE(turns.size() == 1);
    CHECK(between.measured().empty());
}

TEST_CASE("each kind's cost is its own median and spread") {
    InterleavedCalibration between(0.37, rule(0.3, 100));
    const double costs[] = {0.40, 0.41, 0.43, 0.45, 0.41, 0.42};
    REQUIRE(record_costs(between, costs) == 6);
    const auto measured = between.measured();
    REQUIRE(measured.size() == 3);
    CHECK(measured[0].first == CalibrationKind::Light);
    CHECK(measured[0].second.median_ms == doctest::Approx(0.405)); // 0.40, 0.41
    CHECK(measured[0].second.spread_ms == doctest::Approx(0.005));
    CHECK(measured[1].second.median_ms == doctest::Approx(0.44));  // 0.43, 0.45
    CHECK(measured[2].second.median_ms == doctest::Approx(0.415)); // 0.41, 0.42
}

TEST_CASE("the kept calls pooled: their median and spread, one outlier among them moving neither far") {
    InterleavedCalibration between(0.37, rule(0.3, 100));
    const double costs[] = {0.40, 0.41, 0.43, 0.90, 0.41, 0.42};
    REQUIRE(record_costs(between, costs) == 6);
    REQUIRE(between.enough_made());
    const EmptyCall pooled = between.pooled();
    CHECK(pooled.samples == 6);
    CHECK(pooled.median_ms == doctest::Approx(0.415));
    CHECK(pooled.spread_ms < 0.03); // the shared-memory kind alone: 0.43 and 0.90
}

TEST_CASE(
    "the same turns in the solution's process are pooled apart from the baseline's, and only once there are enough") {
    InterleavedCalibration between(0.37, rule(0.3, 100));
    const double costs[] = {0.40, 0.41, 0.43, 0.45, 0.41, 0.42};
    REQUIRE(record_costs(between, costs) == 6);
    for (double ms : {0.402, 0.404, 0.406, 0.408, 0.410}) between.record_in_solution_process(ms);
    CHECK_FALSE(between.pooled_in_solution_process()); // five: too few
    between.record_in_solution_process(0.412);
    const auto there = between.pooled_in_solution_process();
    REQUIRE(there);
    CHECK(there->samples == 6);
    CHECK(there->median_ms == doctest::Approx(0.407));
    CHECK(between.pooled().median_ms == doctest::Approx(0.415)); // the baseline's own, unchanged
    CHECK(between.pooled().samples == 6);
}
