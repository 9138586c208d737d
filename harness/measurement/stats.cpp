#include "measurement/stats.hpp"

#include <algorithm>
#include <cmath>

namespace gemm {

double quantile_of_sorted(const std::vector<double> &sorted, double q) {
    if (sorted.empty()) return 0;
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + (sorted[above] - sorted[below]) * fraction;
}

TimingSummary summarize(std::vector<double> samples_ms) {
    TimingSummary s;
    if (samples_ms.empty()) return s;
    std::sort(samples_ms.begin(), samples_ms.end());
    s.samples = static_cast<int>(samples_ms.size());
    s.min_ms = samples_ms.front();
    s.max_ms = samples_ms.back();
    s.median_ms = quantile_of_sorted(samples_ms, 0.5);
    s.q1_ms = quantile_of_sorted(samples_ms, 0.25);
    s.q3_ms = quantile_of_sorted(samples_ms, 0.75);
    return s;
}

double flop_count(int M, int N, int K, long long batch) {
    return 2.0 * M * static_cast<double>(N) * K * static_cast<double>(batch);
}

double gflops(double flops, double milliseconds) { return milliseconds > 0 ? flops / (milliseconds * 1e6) : 0; }

} // namespace gemm
