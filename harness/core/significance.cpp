#include "core/significance.hpp"
#include "core/stats.hpp"

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

double noise_floor(double median_a, double median_b) {
    return std::max(median_a, median_b) / std::min(median_a, median_b) - 1;
}

bool significant(double relative_change, double p_value, double noise_floor, double alpha) {
    return p_value < alpha && std::abs(relative_change) > noise_floor;
}

} // namespace gemm
