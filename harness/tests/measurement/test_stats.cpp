// Robust timing statistics: median and quartiles by linear interpolation between
// closest ranks (numpy's default "linear" method, R's type 7).
#include <doctest/doctest.h>

#include "measurement/stats.hpp"

#include <vector>

using namespace gemm;

TEST_CASE("summarize of an odd count takes the middle sample as the median") {
    const auto s = summarize({5, 1, 3});
    CHECK(s.samples == 3);
    CHECK(s.min_ms == 1.0);
    CHECK(s.max_ms == 5.0);
    CHECK(s.median_ms == 3.0);
    // positions 0.5 and 1.5 of the sorted 1, 3, 5
    CHECK(s.q1_ms == 2.0);
    CHECK(s.q3_ms == 4.0);
    CHECK(s.relative_spread() == doctest::Approx(2.0 / 3.0));
}

TEST_CASE("summarize of an even count interpolates the median between the middle two") {
    const auto s = summarize({4, 1, 3, 2});
    CHECK(s.samples == 4);
    CHECK(s.min_ms == 1.0);
    CHECK(s.max_ms == 4.0);
    CHECK(s.median_ms == 2.5);
    // positions 0.75 and 2.25 of the sorted 1, 2, 3, 4
    CHECK(s.q1_ms == 1.75);
    CHECK(s.q3_ms == 3.25);
    CHECK(s.relative_spread() == doctest::Approx(0.6));
}

TEST_CASE("summarize of ten samples matches numpy's linear percentiles") {
    // numpy.percentile([10..100], [25, 50, 75]) == [32.5, 55, 77.5]
    const auto s = summarize({100, 90, 10, 80, 20, 70, 30, 60, 40, 50});
    CHECK(s.samples == 10);
    CHECK(s.q1_ms == doctest::Approx(32.5));
    CHECK(s.median_ms == doctest::Approx(55.0));
    CHECK(s.q3_ms == doctest::Approx(77.5));
    CHECK(s.min_ms == 10.0);
    CHECK(s.max_ms == 100.0);
    CHECK(s.relative_spread() == doctest::Approx(45.0 / 55.0));
}

TEST_CASE("one slow outlier moves neither the median nor the quartiles much") {
    const auto s = summarize({1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 500.0});
    CHECK(s.median_ms == 1.0);
    CHECK(s.q3_ms == 1.0);
    CHECK(s.max_ms == 500.0);
    CHECK(s.relative_spread() == 0.0);
}

TEST_CASE("summarize of one sample gives that sample for every figure") {
    const auto s = summarize({7.25});
    CHECK(s.samples == 1);
    CHECK(s.min_ms == 7.25);
    CHECK(s.max_ms == 7.25);
    CHECK(s.median_ms == 7.25);
    CHECK(s.q1_ms == 7.25);
    CHECK(s.q3_ms == 7.25);
    CHECK(s.relative_spread() == 0.0);
}

TEST_CASE("summarize of no samples gives zeros and a zero spread") {
    const auto s = summarize({});
    CHECK(s.samples == 0);
    CHECK(s.median_ms == 0.0);
    CHECK(s.min_ms == 0.0);
    CHECK(s.max_ms == 0.0);
    CHECK(s.q1_ms == 0.0);
    CHECK(s.q3_ms == 0.0);
    CHECK(s.relative_spread() == 0.0);
}

TEST_CASE("quantile_of_sorted interpolates linearly between closest ranks") {
    const std::vector<double> v{0, 10, 20};
    CHECK(quantile_of_sorted(v, 0.0) == 0.0);
    CHECK(quantile_of_sorted(v, 1.0) == 20.0);
    CHECK(quantile_of_sorted(v, 0.5) == 10.0);
    CHECK(quantile_of_sorted(v, 0.1) == doctest::Approx(2.0));
    CHECK(quantile_of_sorted(v, 0.9) == doctest::Approx(18.0));
    CHECK(quantile_of_sorted({}, 0.5) == 0.0);
    CHECK(quantile_of_sorted({3.5}, 0.25) == 3.5);
}

TEST_CASE("relative_spread is the interquartile range over the median") {
    TimingSummary s;
    s.median_ms = 4;
    s.q1_ms = 3;
    s.q3_ms = 6;
    CHECK(s.relative_spread() == 0.75);
    s.median_ms = 0;
    CHECK(s.relative_spread() == 0.0);
}

TEST_CASE("gflops divides flops by the time in nanoseconds") {
    CHECK(gflops(2e9, 10.0) == doctest::Approx(200.0));
    CHECK(gflops(2.0 * 4096.0 * 4096.0 * 4096.0, 1.0) == doctest::Approx(137438.953472));
    CHECK(gflops(1e6, 1.0) == doctest::Approx(1.0));
}

TEST_CASE("gflops of a zero or negative time is zero rather than infinite") {
    CHECK(gflops(1e9, 0.0) == 0.0);
    CHECK(gflops(1e9, -1.0) == 0.0);
}
