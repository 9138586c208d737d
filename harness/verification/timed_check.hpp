// Verifying the output of a timed call in O(M·N + N·K + M·K), so every call is checked
// without an FP64 GEMM per call. Two checks, both in FP64, drawn after solve() returned:
//
// 1. Freivalds' projection. For a random x ∈ {−1, +1}^K, C·x is compared with A·(B·x).
//    A correct FP32 C = A·B + E has |E|ᵢⱼ ≤ c·γ_N·(|A||B|)ᵢⱼ (check.hpp), so
//        |(C·x − A·(B·x))ᵢ| = |(E·x)ᵢ| ≤ c·γ_N·(|A|·(|B|·|x|))ᵢ.
//    The FP64 evaluation adds at most γ⁶⁴_{N+K+2}·((|A|·(|B|·|x|))ᵢ + (|C|·|x|)ᵢ) per side
//    (two chained products and one of length K, every sum in any order), so the bound
//    projection_bound() uses twice that: it never rejects an output that meets the
//    elementwise bound, whatever the summation order (sequential, split-K, atomics).
//    A replayed, scaled, stale or half-written C misses it by orders of magnitude.
// 2. A sample of elements recomputed exactly (FP64 dot products) and held to the
//    elementwise bound, plus the normwise error of the sample, which must stay within
//    sampled_normwise_slack × the normwise tolerance: a precision below FP32 in the
//    timed calls alone (TF32 at 17× the FP32 tolerance for N = 4096) shows there.
// testcases/README.md derives the bound for problem setters.
#pragma once

#include "common/portable.hpp"
#include "verification/check.hpp"

#include <optional>
#include <vector>

namespace gemm {

constexpr int projection_vectors = 2;  // independent x per call
constexpr int sampled_elements = 1024; // exactly recomputed elements per call
constexpr double sampled_normwise_slack = 3.0;
// Below this many elements in C a sample's normwise error is one element's relative
// error, which cancellation can make large for a correct kernel: only the bounds apply.
constexpr long long sampled_normwise_min_elements = 4096;

// γ_n in FP64 arithmetic: n·u₆₄ / (1 − n·u₆₄), u₆₄ = 2⁻⁵³.
GEMM_HOST_DEVICE inline double fp64_gamma(double n) {
    const double nu = n * 0x1p-53;
    return nu / (1.0 - nu);
}

// The largest |(C·x)ᵢ − (A·(B·x))ᵢ| a correct output can show: `magnitude` is
// (|A|·(|B|·|x|))ᵢ, `output_magnitude` is (|C|·|x|)ᵢ, `bound_per_magnitude` the
// elementwise bound of check.hpp for magnitude 1 (c·γ_N with the precision's terms).
GEMM_HOST_DEVICE inline double projection_bound(int N, int K, double magnitude, double output_magnitude,
                                                double bound_per_magnitude) {
    const double g = fp64_gamma(static_cast<double>(N) + K + 2);
    return bound_per_magnitude * magnitude * (1 + 2 * g) + 2 * g * (magnitude + output_magnitude);
}

struct ProjectionTally {
    int vectors = 0;
    long long rows_checked = 0, rows_failed = 0;
    long long first_failed_row = -1; // in the first vector that failed
    double first_difference = 0;     // |(C·x − A·(B·x))ᵢ| there; NaN when C·x is not finite
    double first_bound = 0;
    double worst_ratio = 0; // max difference / bound over all rows and vectors
};

struct SampleTally {
    long long samples = 0, out_of_bound = 0, non_finite = 0, unwritten = 0;
    std::optional<BadElement> first_bad;
    double error_sq = 0, reference_sq = 0; // over the sampled finite elements
};

struct TimedCallCheck {
    ProjectionTally projection;
    SampleTally samples;
    IntegrityCheck integrity;
};

// Adds one recomputed element (C's bits, its FP64 value, its elementwise bound).
void add_sample(SampleTally &tally, long long row, long long col, std::uint32_t bits, double reference, double bound);

// AC, or WA with what the checks saw, in the words of the full check.
Judgement judge_timed_call(const TimedCallCheck &check, Precision precision, int N, long long elements);

// The CPU oracle of both checks (tests; the worker runs them on the GPU). x has K
// entries; the sample is the listed (row, col) pairs.
ProjectionTally project_on_cpu(const std::vector<float> &A, const std::vector<float> &B, const float *C, int M, int N,
                               int K, const std::vector<double> &x, Precision precision = Precision::FP32);
SampleTally sample_on_cpu(const std::vector<float> &A, const std::vector<float> &B, const float *C, int M, int N, int K,
                          const std::vector<std::pair<long long, long long>> &elements,
                          Precision precision = Precision::FP32);

} // namespace gemm
