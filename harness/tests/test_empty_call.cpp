// The empty call's rule (core/empty_call.hpp) on synthetic figures: the smaller cost is
// taken off, a busy host passes, a kernel left running does not, one slow try is noise.
#include "core/empty_call.hpp"

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
