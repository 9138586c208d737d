// Is a change in time real? Two answers that must agree:
// - the Mann–Whitney U test on two sets of timed calls, as google/benchmark's compare.py
//   uses it (scipy.stats.mannwhitneyu, two-sided): are the calls of one side larger?
// - a confidence interval of the ratio of the two sides' medians from every round (a
//   bootstrap over rounds and calls, below): how far could the ratio be moved by noise?
// The U test alone treats every call as independent, so with 100 calls a side it calls a
// 0.3% drift between two rounds "significant"; the interval sees the rounds disagree.
// A change is significant only when the interval excludes 1 and p is small. (Before, a
// "noise floor" — the largest difference between the first two rounds' medians over every
// shape — was one figure for all shapes: one round off by 4.3% on one shape hid a 3.8%
// change on another.)
#pragma once

#include <cstdint>
#include <utility>
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

// The timed calls of one side of one shape, round by round. Rounds are apart in time (the
// other side and the other shapes run between them), so a round carries the drift its
// calls share — a clock, a neighbour on the machine — that calls within it cannot show.
using Rounds = std::vector<std::vector<double>>;

// How the interval is drawn; the defaults are what compare and rank use.
struct BootstrapRule {
    double level = 0.99;
    int resamples = 2000;
    std::uint64_t seed = 0x6a75646765; // "judge": the same samples give the same interval
    // Round r of the first side and round r of the second ran back to back (a live
    // compare): a resample draws the same rounds for both, so whatever the two shared in a
    // round (the machine's state then) moves both medians together and not their ratio.
    // Used only when both sides have as many rounds, more than one.
    bool paired_rounds = false;
};

// compare's rule for `shapes` intervals read together: each at 1 − (1 − family_level)/shapes
// (Bonferroni), so that a solution against itself is called a change on any of its shapes
// with a chance of at most 1 − family_level, not that chance on each; with resamples
// enough for at least 10 to lie beyond each end of the narrower quantiles.
BootstrapRule family_wise_rule(std::size_t shapes, double family_level = 0.99);

// The ratio median(second) / median(first) of the pooled calls, and its interval.
struct RatioInterval {
    double ratio = 1, low = 1, high = 1;
    double level = 0.99;
    bool excludes_one() const { return low > 1 || high < 1; }
    // The farther end's distance from the ratio, relative: 0.004 for "±0.4%".
    double relative_half_width() const;
};

// The method in words, for --help and the reports.
extern const char *const ratio_interval_method;

// The bootstrap percentile interval of median(second) / median(first), medians of the
// pooled calls. One resample of a side of R rounds draws R rounds with replacement, and
// from each drawn round as many calls as it has, with replacement; each round's calls are
// first scaled so that its median's distance from the side's median grows by √(R/(R−1)),
// the usual correction for drawing from few rounds (a bootstrap over R rounds sees only
// (R−1)/R of their variance); one round is drawn as calls alone. The interval is the
// (1 − level)/2 and (1 + level)/2 quantiles of the resampled ratios. Draws come from
// SplitMix64 (common/rng.hpp) seeded with rule.seed, an index below n as ⌊next()·n / 2⁶⁴⌋.
// With rule.paired_rounds the rounds drawn for the second side are those drawn for the first.
// Throws std::invalid_argument when a side has no call.
RatioInterval median_ratio_interval(const Rounds &first, const Rounds &second, const BootstrapRule &rule = {});

// The same for the geometric mean over shapes of median(second) / median(first) (rank's
// score, first the solution and second cuBLAS): every resample draws every shape's two
// sides as above.
RatioInterval geomean_ratio_interval(const std::vector<std::pair<Rounds, Rounds>> &shapes,
                                     const BootstrapRule &rule = {});

// The decision: the interval excludes 1 and the U test's p is below alpha.
bool significant(const RatioInterval &interval, double p_value, double alpha = 0.05);

} // namespace gemm
