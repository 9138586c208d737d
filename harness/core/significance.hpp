// Is a change in time real? The Mann–Whitney U test on two sets of timed calls, as
// google/benchmark's compare.py uses it (scipy.stats.mannwhitneyu, two-sided), plus the
// noise floor: the change the machine itself produces between two measurements of one
// thing (cuBLAS timed twice in one run). A change counts only when it is both unlikely
// under the null hypothesis and larger than that floor, because with 100 calls a side
// the test calls a 0.3% clock drift "significant".
#pragma once

#include <vector>

namespace gemm {

struct RankTest {
    // U of the first sample: the pairs (x from the first, y from the second) with x > y,
    // ties counting one half; from 0 to n1·n2, and n1·n2/2 when neither tends larger.
    double u = 0;
    // The normal approximation's statistic for U, tie- and continuity-corrected: positive
    // when the first sample tends larger. Given even when p comes from the exact distribution.
    double z = 0;
    double p_value = 1;      // two-sided
    bool exact = false;      // p from the exact distribution of U rather than the normal approximation
    double median_ratio = 1; // median(second) / median(first): < 1 when the second is faster
    double relative_change() const { return median_ratio - 1; }
};

// Samples of at most this many calls on both sides and without ties get the exact
// distribution of U; larger or tied samples the normal approximation, which from there on
// is within 0.005 of the exact p (the largest gap at 20 against 20 calls is 0.0042).
constexpr int exact_mann_whitney_max_samples = 20;

// Two-sided test of "the two samples come from one distribution". Throws
// std::invalid_argument when a sample is empty.
RankTest mann_whitney_u(const std::vector<double> &first, const std::vector<double> &second);

// The relative difference between two medians of the same measurement (the larger over
// the smaller, minus one): the smallest relative change that noise alone could not explain.
double noise_floor(double median_a, double median_b);

// A change is significant when p < alpha and |relative change| > noise floor.
bool significant(double relative_change, double p_value, double noise_floor, double alpha = 0.05);

} // namespace gemm
