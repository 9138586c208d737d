#include "measurement/significance.hpp"
#include "common/rng.hpp"
#include "measurement/stats.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gemm {

namespace {

struct Ranked {
    double u_first = 0;
    double tie_term = 0; // Σ (t³ − t) over groups of t tied values
    bool ties = false;
};

// Midranks of the pooled sample; U of the first is its rank sum less its least possible.
Ranked rank_pooled(const std::vector<double> &first, const std::vector<double> &second) {
    std::vector<std::pair<double, bool>> pooled; // value, from the first sample
    for (double x : first) pooled.emplace_back(x, true);
    for (double y : second) pooled.emplace_back(y, false);
    std::sort(pooled.begin(), pooled.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    Ranked ranked;
    double rank_sum_first = 0;
    for (std::size_t start = 0; start < pooled.size();) {
        std::size_t end = start + 1;
        while (end < pooled.size() && pooled[end].first == pooled[start].first) ++end;
        const double midrank = (double(start + 1) + double(end)) / 2;
        for (std::size_t i = start; i < end; ++i)
            if (pooled[i].second) rank_sum_first += midrank;
        const double t = double(end - start);
        ranked.tie_term += t * t * t - t;
        ranked.ties = ranked.ties || t > 1;
        start = end;
    }
    const double n1 = double(first.size());
    ranked.u_first = rank_sum_first - n1 * (n1 + 1) / 2;
    return ranked;
}

// How many of the C(n1 + n2, n1) orderings of two untied samples give each U, by the
// recurrence c(i, j, u) = c(i − 1, j, u − j) + c(i, j − 1, u): the largest value of the
// pooled sample comes either from the first (and beats all j of the second) or from the
// second. Counts stay below 2^53 for n1, n2 ≤ 20, so doubles hold them exactly.
std::vector<double> exact_u_counts(int n1, int n2) {
    // row[j] holds c(i, j, ·) for the current i.
    std::vector<std::vector<double>> row(n2 + 1, std::vector<double>{1});
    for (int i = 1; i <= n1; ++i) {
        std::vector<std::vector<double>> next(n2 + 1);
        next[0] = {1};
        for (int j = 1; j <= n2; ++j) {
            std::vector<double> counts(std::size_t(i * j + 1), 0.0);
            for (std::size_t u = 0; u < row[j].size(); ++u) counts[u + j] += row[j][u];
            for (std::size_t u = 0; u < next[j - 1].size(); ++u) counts[u] += next[j - 1][u];
            next[j] = std::move(counts);
        }
        row = std::move(next);
    }
    return row[n2];
}

// P(U ≥ u) + P(U ≤ n1·n2 − u) for the larger of the two tails: the two-sided p.
double exact_two_sided_p(double u_first, int n1, int n2) {
    const auto counts = exact_u_counts(n1, n2);
    const double u_larger = std::max(u_first, double(n1) * n2 - u_first);
    double tail = 0, total = 0;
    for (std::size_t u = 0; u < counts.size(); ++u) {
        total += counts[u];
        if (double(u) >= u_larger) tail += counts[u];
    }
    return std::min(1.0, 2 * tail / total);
}

double median(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    return quantile_of_sorted(samples, 0.5);
}

} // namespace

RankTest mann_whitney_u(const std::vector<double> &first, const std::vector<double> &second) {
    if (first.empty() || second.empty()) throw std::invalid_argument("the Mann–Whitney U test needs two samples");
    const double n1 = double(first.size()), n2 = double(second.size()), n = n1 + n2;
    const Ranked ranked = rank_pooled(first, second);

    RankTest test;
    test.u = ranked.u_first;
    const double mean = n1 * n2 / 2;
    const double sigma = std::sqrt(n1 * n2 / 12 * ((n + 1) - ranked.tie_term / (n * (n - 1))));
    const double distance = std::max(0.0, std::abs(test.u - mean) - 0.5); // continuity correction
    // sigma is 0 only when every value is tied: nothing tells the samples apart.
    test.z = sigma > 0 ? std::copysign(distance / sigma, test.u - mean) : 0;
    test.p_value = std::min(1.0, std::erfc(std::abs(test.z) / std::sqrt(2.0)));

    test.exact = !ranked.ties && first.size() <= exact_mann_whitney_max_samples &&
                 second.size() <= exact_mann_whitney_max_samples;
    if (test.exact) test.p_value = exact_two_sided_p(test.u, int(first.size()), int(second.size()));

    test.median_ratio = median(second) / median(first);
    return test;
}

const char *const ratio_interval_method =
    "bootstrap percentile interval over rounds and calls (rank's score at 99%; compare's shapes at 99% all together, "
    "each at 1 − 0.01/shapes): 2000 resamples or enough for 10 beyond each end, each drawing a side's rounds with "
    "replacement "
    "(their spread widened by √(R/(R−1)) for R rounds) and each drawn round's calls with replacement, seeded, so "
    "the same samples give the same interval; a live compare draws the same rounds for both sides, its round r of "
    "each having run back to back";

BootstrapRule family_wise_rule(std::size_t shapes, double family_level) {
    BootstrapRule rule;
    if (shapes == 0) shapes = 1;
    rule.level = 1 - (1 - family_level) / double(shapes);
    const double tail = (1 - rule.level) / 2;
    rule.resamples = std::max(rule.resamples, static_cast<int>(std::ceil(10 / tail)));
    return rule;
}

double RatioInterval::relative_half_width() const { return std::max(high / ratio - 1, 1 - low / ratio); }

namespace {

// The median as quantile_of_sorted(·, 0.5) gives it (the mean of the two middle values of
// an even count), without sorting: the figure the reports print.
double median_in_place(std::vector<double> &values) {
    const std::size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + middle, values.end());
    const double upper = values[middle];
    if (values.size() % 2 == 1) return upper;
    return (*std::max_element(values.begin(), values.begin() + middle) + upper) / 2;
}

// ⌊next()·n / 2⁶⁴⌋: uniform on [0, n) up to a bias below n / 2⁶⁴.
std::size_t draw_index(SplitMix64 &generator, std::size_t n) {
    return static_cast<std::size_t>((static_cast<unsigned __int128>(generator.next()) * n) >> 64);
}

// One side, ready to be resampled: its rounds with their calls scaled by the correction.
class ResampledSide {
  public:
    explicit ResampledSide(const Rounds &rounds) {
        for (const auto &round : rounds)
            if (!round.empty()) rounds_.push_back(round);
        if (rounds_.empty()) throw std::invalid_argument("a bootstrap interval needs calls on both sides");
        for (const auto &round : rounds_) pooled_.insert(pooled_.end(), round.begin(), round.end());
        median_ = median_in_place(pooled_);
        const double R = double(rounds_.size());
        if (rounds_.size() < 2) return;
        const double widen = std::sqrt(R / (R - 1));
        for (auto &round : rounds_) {
            std::vector<double> copy = round;
            const double scale = std::pow(median_in_place(copy) / median_, widen - 1);
            for (double &call : round) call *= scale;
        }
    }
    double median() const { return median_; }
    std::size_t rounds() const { return rounds_.size(); }
    // The rounds to draw calls from: R drawn with replacement (one round: itself).
    std::vector<std::size_t> drawn_rounds(SplitMix64 &generator) const {
        std::vector<std::size_t> drawn(rounds_.size(), 0);
        if (rounds_.size() > 1)
            for (auto &r : drawn) r = draw_index(generator, rounds_.size());
        return drawn;
    }
    // The median of the calls drawn with replacement from each of `rounds`.
    double resampled_median(SplitMix64 &generator, const std::vector<std::size_t> &rounds) {
        drawn_.clear();
        for (const std::size_t r : rounds) {
            const auto &round = rounds_[r];
            for (std::size_t c = 0; c < round.size(); ++c) drawn_.push_back(round[draw_index(generator, round.size())]);
        }
        return median_in_place(drawn_);
    }

  private:
    Rounds rounds_;
    std::vector<double> pooled_, drawn_;
    double median_ = 0;
};

RatioInterval percentile_interval(double ratio, std::vector<double> resampled, double level) {
    std::sort(resampled.begin(), resampled.end());
    RatioInterval interval;
    interval.ratio = ratio;
    interval.level = level;
    interval.low = quantile_of_sorted(resampled, (1 - level) / 2);
    interval.high = quantile_of_sorted(resampled, (1 + level) / 2);
    return interval;
}

} // namespace

RatioInterval median_ratio_interval(const Rounds &first, const Rounds &second, const BootstrapRule &rule) {
    return geomean_ratio_interval({{first, second}}, rule);
}

RatioInterval geomean_ratio_interval(const std::vector<std::pair<Rounds, Rounds>> &shapes, const BootstrapRule &rule) {
    if (shapes.empty()) throw std::invalid_argument("a bootstrap interval needs a shape");
    std::vector<std::pair<ResampledSide, ResampledSide>> sides;
    double log_sum = 0;
    for (const auto &[first, second] : shapes) {
        sides.emplace_back(ResampledSide(first), ResampledSide(second));
        log_sum += std::log(sides.back().second.median() / sides.back().first.median());
    }
    const double count = double(shapes.size());
    SplitMix64 generator(rule.seed);
    std::vector<double> resampled;
    resampled.reserve(std::size_t(rule.resamples));
    for (int i = 0; i < rule.resamples; ++i) {
        double resampled_log_sum = 0;
        for (auto &[first, second] : sides) {
            const bool paired = rule.paired_rounds && first.rounds() == second.rounds() && first.rounds() > 1;
            const auto first_rounds = first.drawn_rounds(generator);
            const double before = first.resampled_median(generator, first_rounds);
            const double after =
                second.resampled_median(generator, paired ? first_rounds : second.drawn_rounds(generator));
            resampled_log_sum += std::log(after / before);
        }
        resampled.push_back(std::exp(resampled_log_sum / count));
    }
    return percentile_interval(std::exp(log_sum / count), std::move(resampled), rule.level);
}

bool significant(const RatioInterval &interval, double p_value, double alpha) {
    return p_value < alpha && interval.excludes_one();
}

} // namespace gemm
