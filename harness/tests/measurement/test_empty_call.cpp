// The empty call's rule (measurement/offset_rule.hpp) on synthetic figures: the smaller cost is
// taken off, a busy host passes, a kernel left running does not, one slow try is noise.
#include "measurement/offset_rule.hpp"

#include <doctest/doctest.h>

using namespace gemm;

namespace {

EmptyCall costing(double median_ms, double spread_ms = 0.005) { return {median_ms, spread_ms, 7, false}; }

} // namespace

TEST_CASE("the smaller of the two empty calls is taken off, and it says which") {
    const auto idle_clocks = settle_empty_call(costing(0.42), {costing(0.35)});
    CHECK_FALSE(idle_clocks.gpu_kept_busy);
    CHECK(idle_clocks.used.median_ms == 0.35);
    CHECK_FALSE(idle_clocks.used.measured_before_solution);
    const auto slower_after = settle_empty_call(costing(0.35), {costing(0.40)});
    CHECK(slower_after.used.median_ms == 0.35);
    CHECK(slower_after.used.measured_before_solution);
}

TEST_CASE("a busy host costs a fraction of a millisecond and is not the solution's doing") {
    // Measured on the H200 with the CPU tests beside it: 0.645 ms after, 0.422 ms before.
    const std::optional<EmptyCall> before = costing(0.422);
    CHECK_FALSE(wants_another_try(before, {costing(0.645)}));
    const auto d = settle_empty_call(before, {costing(0.645)});
    CHECK_FALSE(d.gpu_kept_busy);
    CHECK(d.used.median_ms == 0.422);
}

TEST_CASE("a kernel left running, slowing every try by time slices, is caught after three tries") {
    const std::optional<EmptyCall> before = costing(0.40);
    std::vector<EmptyCall> after{costing(2.9)};
    CHECK(wants_another_try(before, after));
    after.push_back(costing(3.1));
    CHECK(wants_another_try(before, after));
    after.push_back(costing(2.7));
    CHECK_FALSE(wants_another_try(before, after)); // three tries are enough
    const auto d = settle_empty_call(before, after);
    CHECK(d.gpu_kept_busy);
    CHECK(d.why.find("2.700 ms after its calls, 0.400 ms before it was loaded") != std::string::npos);
    CHECK(d.used.median_ms == 0.40); // never more than the path costs
}

TEST_CASE("one slow try of three is noise") {
    const std::optional<EmptyCall> before = costing(0.40);
    std::vector<EmptyCall> after{costing(2.5)};
    CHECK(wants_another_try(before, after));
    after.push_back(costing(0.41));
    CHECK_FALSE(wants_another_try(before, after));
    CHECK_FALSE(settle_empty_call(before, after).gpu_kept_busy);
}

TEST_CASE("a shape not measured before the solution loaded takes the one measured after") {
    CHECK_FALSE(wants_another_try(std::nullopt, {costing(5.0)}));
    const auto d = settle_empty_call(std::nullopt, {costing(5.0)});
    CHECK_FALSE(d.gpu_kept_busy);
    CHECK(d.used.median_ms == 5.0);
}

TEST_CASE("a noisy empty call widens the tolerance with its spread") {
    CHECK(busy_gpu_tolerance_ms(costing(0.3, 0.001)) == 0.5);
    CHECK(busy_gpu_tolerance_ms(costing(0.8, 0.001)) == 0.8);
    CHECK(busy_gpu_tolerance_ms(costing(0.3, 0.2)) == doctest::Approx(2.0));
}

// The calibration call (measurement/offset_rule.hpp): figures from the H200, where an empty call cost 0.35 ms
// and a kernel busy 1 / 3 / 10 / 20 ms cost 27 / 59 / 131 / 200 µs more beyond its own work.
TEST_CASE("a run's stand-in is as long as the run less the empty call, never negative") {
    CHECK(calibration_length_ms(3.40, costing(0.45)) == doctest::Approx(2.95));
    CHECK(calibration_length_ms(0.30, costing(0.45)) == 0.0);
    CHECK_FALSE(wants_calibration(0.01));
    CHECK(wants_calibration(0.38));
}

TEST_CASE("stand-in calls: many for short runs, three for long ones, about 12 ms a run") {
    CHECK(calibration_calls(0.1) == 11);
    CHECK(calibration_calls(0.6) == 11);
    CHECK(calibration_calls(2.7) == 4);
    CHECK(calibration_calls(17.0) == 3);
    CHECK(calibration_calls(200.0) == 3);
}

TEST_CASE("a stand-in's cost is taken off whole when its length explains it") {
    const EmptyCall empty = costing(0.352);
    const EmptyCall used = settle_calibration(empty, costing(0.483, 0.006), 10.0);
    CHECK(used.median_ms == 0.483);
    CHECK(used.spread_ms == 0.006);
    CHECK_FALSE(used.capped);
    REQUIRE(used.stands_in_for_ms);
    CHECK(*used.stands_in_for_ms == 10.0);
    CHECK(used.empty_median_ms == 0.352);
}

TEST_CASE("a stand-in cheaper than the empty call is taken as it is: less taken off is never a shorter time") {
    const EmptyCall used = settle_calibration(costing(0.352), costing(0.349), 0.4);
    CHECK(used.median_ms == 0.349);
    CHECK_FALSE(used.capped);
}

TEST_CASE("a stand-in slowed past what its length explains is capped, and says so") {
    // 1 ms of GPU time stolen from the calibration call: the cap at 2% of 3 ms + 30 µs holds.
    const EmptyCall used = settle_calibration(costing(0.352), costing(1.4), 3.0);
    CHECK(used.capped);
    CHECK(used.median_ms == doctest::Approx(0.352 + 0.06 + 0.03));
    CHECK(calibration_excess_cap_ms(20.0) == doctest::Approx(0.43)); // above the 0.26 ms the H200 showed
}

// Several kinds of calibration call (measurement/calibration_kind.hpp): on the H200 the path's cost for
// 0.2–1.4 ms calls differed by 10–30 µs between kinds of work of the same length.
TEST_CASE("short runs are stood in for by every kind, long ones by the light kind alone") {
    CHECK(calibration_kinds(0.2).size() == every_calibration_kind.size());
    CHECK(calibration_kinds(2.9).size() == every_calibration_kind.size());
    REQUIRE(calibration_kinds(3.0).size() == 1);
    CHECK(calibration_kinds(17.0).front() == CalibrationKind::Light);
}

TEST_CASE("several kinds: the middle of their range is taken off, and half the range is its spread") {
    const EmptyCall empty = costing(0.352);
    const EmptyCall used = settle_calibrations(empty,
                                               {{CalibrationKind::Light, costing(0.370, 0.003)},
                                                {CalibrationKind::SharedMemory, costing(0.390, 0.004)},
                                                {CalibrationKind::Streaming, costing(0.380, 0.002)}},
                                               0.5);
    CHECK(used.median_ms == doctest::Approx(0.380));
    CHECK(used.spread_ms == doctest::Approx(0.010));
    CHECK_FALSE(used.capped);
    REQUIRE(used.stands_in_for_ms);
    CHECK(*used.stands_in_for_ms == 0.5);
    CHECK(used.empty_median_ms == 0.352);
    REQUIRE(used.calibrations.size() == 3);
    CHECK(used.calibrations[0].kind == "light");
    CHECK(used.calibrations[1].kind == "shared-memory");
    CHECK(used.calibrations[1].median_ms == 0.390);
    CHECK(used.calibrations[2].kind == "streaming");
}

TEST_CASE("several kinds that agree: their own spread, not a range of zero, is the spread") {
    const EmptyCall used = settle_calibrations(costing(0.352),
                                               {{CalibrationKind::Light, costing(0.370, 0.006)},
                                                {CalibrationKind::SharedMemory, costing(0.372, 0.003)},
                                                {CalibrationKind::Streaming, costing(0.371, 0.002)}},
                                               0.5);
    CHECK(used.median_ms == doctest::Approx(0.371));
    CHECK(used.spread_ms == doctest::Approx(0.006));
}

TEST_CASE("several kinds: each is capped on its own, so a slowed one moves the middle only up to its cap") {
    // 0.5 ms of GPU time stolen from the streaming calibration call: its cap, 2% of 0.5 ms + 30 µs, holds.
    const EmptyCall used = settle_calibrations(costing(0.352),
                                               {{CalibrationKind::Light, costing(0.360, 0.003)},
                                                {CalibrationKind::SharedMemory, costing(0.366, 0.003)},
                                                {CalibrationKind::Streaming, costing(0.900, 0.003)}},
                                               0.5);
    CHECK(used.capped);
    REQUIRE(used.calibrations.size() == 3);
    CHECK(used.calibrations[2].capped);
    CHECK(used.calibrations[2].median_ms == doctest::Approx(0.352 + 0.01 + 0.03));
    CHECK(used.median_ms == doctest::Approx((0.360 + 0.392) / 2));
    CHECK(used.median_ms <= 0.352 + calibration_excess_cap_ms(0.5));
}

TEST_CASE("one kind: the single stand-in's rule, nothing listed") {
    const EmptyCall used = settle_calibrations(costing(0.352), {{CalibrationKind::Light, costing(0.483, 0.006)}}, 10.0);
    CHECK(used.median_ms == 0.483);
    CHECK(used.spread_ms == 0.006);
    CHECK(used.calibrations.empty());
}

TEST_CASE("stand-ins between the run's calls: their pooled cost is taken off, each kind listed, each capped alone") {
    const EmptyCall pooled = costing(0.380, 0.006);
    const EmptyCall used = settle_interleaved_calibration(costing(0.352), pooled,
                                                          {{CalibrationKind::Light, costing(0.375, 0.004)},
                                                           {CalibrationKind::SharedMemory, costing(0.385, 0.002)},
                                                           {CalibrationKind::Streaming, costing(0.95, 0.002)}},
                                                          0.5);
    CHECK(used.interleaved);
    CHECK(used.median_ms == 0.380);
    CHECK(used.spread_ms == 0.006);
    CHECK_FALSE(used.capped);
    REQUIRE(used.calibrations.size() == 3);
    CHECK(used.calibrations[0].median_ms == 0.375);
    CHECK(used.calibrations[2].capped);
    CHECK(used.calibrations[2].median_ms == doctest::Approx(0.392));
    const EmptyCall slowed = settle_interleaved_calibration(costing(0.352), costing(0.9), {}, 0.5);
    CHECK(slowed.capped);
    CHECK(slowed.median_ms == doctest::Approx(0.392));
    CHECK_FALSE(used.solution_process_excess_ms);
    CHECK(used.spread_in_solution_process_ms() == 0.006);
}

TEST_CASE(
    "stand-ins made in the solution's process too: how much more they cost there is kept beside, never taken off") {
    const EmptyCall pooled = costing(0.380, 0.001);
    EmptyCall there = costing(0.3775, 0.004);
    there.samples = 10;
    const EmptyCall used = settle_interleaved_calibration(costing(0.352), pooled, {}, 0.5, there);
    CHECK(used.median_ms == 0.380); // the baseline's, whatever the solution's process says
    CHECK(used.spread_ms == 0.001);
    REQUIRE(used.solution_process_excess_ms);
    CHECK(*used.solution_process_excess_ms == doctest::Approx(-0.0025));
    CHECK(used.solution_process_samples == 10);
    CHECK(used.spread_in_solution_process_ms() == doctest::Approx(0.0035)); // its own spread, and how far it moved
    // Against the baseline's measured cost, not its cap: the two paths are compared.
    const EmptyCall slowed = settle_interleaved_calibration(costing(0.352), costing(0.9), {}, 0.5, costing(0.91));
    CHECK(slowed.capped);
    CHECK(*slowed.solution_process_excess_ms == doctest::Approx(0.01));
}
