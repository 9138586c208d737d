// The Mann–Whitney U test against figures derived by hand (ranks, tie term, σ, z written
// out below: the same formulas as scipy.stats.mannwhitneyu, two-sided, continuity-corrected),
// its exact p against a brute-force enumeration of every ordering, and the noise floor.
#include <doctest/doctest.h>

#include "core/significance.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

using namespace gemm;

namespace {

// The two-sided exact p by listing every way to choose which n1 of the n1 + n2 pooled
// ranks belong to the first sample: an oracle independent of the recurrence.
double enumerated_exact_p(const std::vector<double> &first, const std::vector<double> &second) {
    const int n1 = int(first.size()), n = n1 + int(second.size());
    int observed = 0;
    for (double x : first)
        for (double y : second) observed += x > y;
    const int larger_tail = std::max(observed, n1 * (n - n1) - observed);
    long long at_least = 0, orderings = 0;
    for (unsigned mask = 0; mask < (1u << n); ++mask) {
        if (__builtin_popcount(mask) != n1) continue;
        int u = 0; // rank i in the first sample beats every lower rank in the second
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < i; ++j) u += (mask >> i & 1) && !(mask >> j & 1);
        ++orderings;
        at_least += u >= larger_tail;
    }
    return std::min(1.0, 2.0 * double(at_least) / double(orderings));
}

std::vector<double> ramp(int count, double start, double step) {
    std::vector<double> values;
    for (int i = 0; i < count; ++i) values.push_back(start + i * step);
    return values;
}

} // namespace

TEST_CASE("three against three, fully separated: U = 0 and the exact p is 2 of 20 orderings") {
    // Only 1 of the C(6, 3) = 20 orderings puts all of the first below all of the
    // second, and 1 the other way round: p = 2/20 (scipy.stats.mannwhitneyu gives 0.1).
    const auto t = mann_whitney_u({1, 2, 3}, {4, 5, 6});
    CHECK(t.exact);
    CHECK(t.u == 0.0);
    CHECK(t.p_value == doctest::Approx(0.1));
    // μ = 4.5, σ = √(3·3/12 · 7) = 2.29129, z = −(4.5 − 0.5)/σ
    CHECK(t.z == doctest::Approx(-1.74574).epsilon(1e-5));
    CHECK(t.median_ratio == doctest::Approx(5.0 / 2.0));
}

TEST_CASE("five against six without ties: the exact p counts 24 of 462 orderings") {
    // Pairs x > y: 3.4 > 2.9 and 5.0 > 2.9, 3.8, 4.1, so U = 4; the larger tail is
    // U ≥ 30 − 4 = 26, reached by 12 of the C(11, 5) = 462 orderings, and the mirror tail
    // U ≤ 4 by 12 more: p = 24/462 = 0.0519481 (counted by enumeration in Python; the
    // normal approximation would say 0.0552).
    const std::vector<double> first{1.1, 3.4, 2.2, 5.0, 0.7}, second{2.9, 4.1, 6.3, 3.8, 7.7, 5.5};
    const auto t = mann_whitney_u(first, second);
    CHECK(t.exact);
    CHECK(t.u == 4.0);
    CHECK(t.p_value == doctest::Approx(24.0 / 462.0));
    CHECK(t.p_value == doctest::Approx(enumerated_exact_p(first, second)));
    // μ = 15, σ = √(30/12 · 12) = 5.47723, z = −(11 − 0.5)/σ
    CHECK(t.z == doctest::Approx(-1.91703).epsilon(1e-5));
}

TEST_CASE("the exact p matches an enumeration of every ordering for assorted small samples") {
    const std::vector<std::pair<std::vector<double>, std::vector<double>>> pairs{
        {{0.5}, {0.7}},
        {{3, 1}, {2}},
        {{1.5, 9, 4, 7}, {2, 3, 8, 10, 11}},
        {{10, 20, 30, 40, 50, 60, 70}, {15, 25, 35, 45, 55, 65, 75}},
        {{5, 6, 7, 8, 9, 10, 11, 12}, {1, 2, 3, 4, 13, 14, 15, 16}},
    };
    for (const auto &[first, second] : pairs) {
        const auto t = mann_whitney_u(first, second);
        CHECK(t.exact);
        CHECK(t.p_value == doctest::Approx(enumerated_exact_p(first, second)));
    }
}

TEST_CASE("ties switch to the normal approximation with the tie correction") {
    // Pooled and ranked: 1→1, 2 ×3→3, 3→5, 4→6, 5 ×3→8, 6→10, 7→11, 8 ×2→12.5, 9 ×2→14.5,
    // 10→16, 11→17. The first's rank sum is 1 + 3 + 3 + 5 + 8 + 8 + 11 + 12.5 = 51.5, so
    // U = 51.5 − 8·9/2 = 15.5. Ties: groups of 3, 3, 2, 2 give Σ(t³ − t) = 24 + 24 + 6 + 6 = 60.
    // μ = 8·9/2 = 36, σ = √(72/12 · (18 − 60/(17·16))) = 10.32843,
    // z = −(36 − 15.5 − 0.5)/σ = −1.93640, p = erfc(1.93640/√2) = 0.0528184.
    const auto t = mann_whitney_u({1, 2, 2, 3, 5, 5, 7, 8}, {2, 4, 5, 6, 8, 9, 9, 10, 11});
    CHECK_FALSE(t.exact);
    CHECK(t.u == 15.5);
    CHECK(t.z == doctest::Approx(-1.93640).epsilon(1e-5));
    CHECK(t.p_value == doctest::Approx(0.0528184).epsilon(1e-5));
    CHECK(t.median_ratio == doctest::Approx(8.0 / 4.0));
}

TEST_CASE("more than 20 calls a side take the normal approximation even without ties") {
    // 0, 1, …, 24 against 10.5, 11.5, …, 34.5: x > y for x = 11 … 24 against 10.5 … x − 0.5,
    // that is 1 + 2 + … + 14 = 105 pairs. μ = 312.5, σ = √(625/12 · 51) = 51.53882,
    // z = −(207.5 − 0.5)/σ = −4.01639, p = 5.90964e-5.
    const auto t = mann_whitney_u(ramp(25, 0, 1), ramp(25, 10.5, 1));
    CHECK_FALSE(t.exact);
    CHECK(t.u == 105.0);
    CHECK(t.z == doctest::Approx(-4.01639).epsilon(1e-5));
    CHECK(t.p_value == doctest::Approx(5.90964e-5).epsilon(1e-4));
}

TEST_CASE("identical samples give p = 1 and no significant change") {
    const auto times = ramp(30, 1.0, 0.01);
    const auto t = mann_whitney_u(times, times);
    CHECK(t.u == doctest::Approx(450.0)); // n1·n2/2: each value ties its copy
    CHECK(t.z == 0.0);
    CHECK(t.p_value == doctest::Approx(1.0));
    CHECK(t.median_ratio == 1.0);
    CHECK_FALSE(significant(t.relative_change(), t.p_value, 0.0));
}

TEST_CASE("samples of one repeated value tell nothing apart: p = 1") {
    const auto t = mann_whitney_u(std::vector<double>(10, 2.5), std::vector<double>(7, 2.5));
    CHECK(t.z == 0.0);
    CHECK(t.p_value == 1.0);
}

TEST_CASE("fully separated samples of 20 calls are significant far beyond 1e-6") {
    SUBCASE("without ties: exact, 2 of C(40, 20) orderings") {
        const auto t = mann_whitney_u(ramp(20, 2.0, 0.01), ramp(20, 1.0, 0.01));
        CHECK(t.exact);
        CHECK(t.u == 400.0);
        CHECK(t.p_value == doctest::Approx(2.0 / 137846528820.0));
        CHECK(t.p_value < 1e-6);
        CHECK(t.median_ratio < 1.0);
    }
    SUBCASE("with ties inside each sample: normal approximation") {
        // Σ(t³ − t) = 2·(8000 − 20) = 15960; σ = √(400/12 · (41 − 15960/1560)) = 32.0256;
        // z = (200 − 0.5)/σ = 6.22939, p = 4.68e-10.
        const auto t = mann_whitney_u(std::vector<double>(20, 2.0), std::vector<double>(20, 1.0));
        CHECK_FALSE(t.exact);
        CHECK(t.z == doctest::Approx(6.22939).epsilon(1e-5));
        CHECK(t.p_value < 1e-6);
    }
}

TEST_CASE("swapping the samples mirrors U and z, inverts the ratio and keeps p") {
    const std::vector<double> a{1.1, 3.4, 2.2, 5.0, 0.7, 2.2}, b{2.9, 4.1, 6.3, 3.8, 7.7, 5.5, 2.2};
    const auto ab = mann_whitney_u(a, b), ba = mann_whitney_u(b, a);
    CHECK(ab.u + ba.u == doctest::Approx(6.0 * 7.0));
    CHECK(ab.z == doctest::Approx(-ba.z));
    CHECK(ab.p_value == doctest::Approx(ba.p_value));
    CHECK(ab.median_ratio * ba.median_ratio == doctest::Approx(1.0));
}

TEST_CASE("an empty sample is refused") {
    CHECK_THROWS_AS(mann_whitney_u({}, {1.0}), std::invalid_argument);
    CHECK_THROWS_AS(mann_whitney_u({1.0}, {}), std::invalid_argument);
}

TEST_CASE("the noise floor is the larger median over the smaller, minus one, either way round") {
    CHECK(noise_floor(10.0, 10.2) == doctest::Approx(0.02));
    CHECK(noise_floor(10.2, 10.0) == doctest::Approx(0.02));
    CHECK(noise_floor(4.0, 4.0) == 0.0);
}

TEST_CASE("a change is significant only when p < alpha and it is larger than the noise floor") {
    CHECK(significant(-0.10, 0.01, 0.02));
    CHECK(significant(+0.10, 0.01, 0.02));
    CHECK_FALSE(significant(-0.01, 1e-9, 0.02)); // certain, but within the machine's noise
    CHECK_FALSE(significant(-0.50, 0.20, 0.02)); // large, but too few calls to tell
    CHECK_FALSE(significant(-0.10, 0.05, 0.02)); // p must be below alpha, not equal
    CHECK(significant(-0.10, 0.05, 0.02, 0.1));
}
