// Statistics of repeated timings: robust figures (median, quartiles) because one
// preempted call on a shared machine must not move the reported time.
#pragma once

#include <vector>

namespace gemm {

struct TimingSummary {
    int samples = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0, q1_ms = 0, q3_ms = 0;
    // Interquartile range over the median: the run-to-run noise a reader should expect.
    double relative_spread() const { return median_ms > 0 ? (q3_ms - q1_ms) / median_ms : 0; }
};

// Linear interpolation between closest ranks of a sorted sample, q in [0, 1].
double quantile_of_sorted(const std::vector<double> &sorted, double q);

TimingSummary summarize(std::vector<double> samples_ms);

double gflops(double flops, double milliseconds);
// 2·M·N·K: one multiply and one add per product term of C = A·B.
double flop_count(int M, int N, int K, long long batch = 1);

} // namespace gemm
