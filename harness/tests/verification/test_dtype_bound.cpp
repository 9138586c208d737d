// The bounds of FP16 and BF16 problems with α and β (verification/dtype_bound.hpp): kernels
// that accumulate in FP32 in any order pass them on every element; one that accumulates in
// FP16 fails the normwise test; a C₀ not read where β ≠ 0 fails.
#include <doctest/doctest.h>

#include "common/rng.hpp"
#include "verification/dtype_bound.hpp"
#include "verification/reference.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace gemm;

namespace {

// x rounded to nearest (even) in a type of `bits` significand bits, `min_exponent` its
// smallest normal exponent and `max` its largest finite value: FP16 and BF16 in software.
double rounded(double x, int bits, int min_exponent, double max) {
    if (x == 0 || !std::isfinite(x)) return x;
    int e = 0;
    std::frexp(x, &e); // x = m·2^e, m in [0.5, 1)
    const int exponent = std::max(e - 1, min_exponent);
    const double spacing = std::ldexp(1.0, exponent - (bits - 1));
    const double r = std::nearbyint(x / spacing) * spacing;
    return std::fabs(r) > max ? std::copysign(INFINITY, r) : r;
}
double fp16(double x) { return rounded(x, 11, -14, 65504); }
double bf16(double x) { return rounded(x, 8, -126, 3.3895313892515355e38); }
double to_type(double x, Dtype t) { return t == Dtype::FP16 ? fp16(x) : t == Dtype::BF16 ? bf16(x) : float(x); }

struct ScaledData {
    int M, N, K;
    std::vector<float> A, B;
    std::vector<double> C0;
};

ScaledData scaled_data(int M, int N, int K, Dtype t, std::uint64_t seed) {
    ScaledData d{M, N, K, {}, {}, {}};
    SplitMix64 g(seed);
    const auto draw = [&](std::size_t n) {
        std::vector<float> v(n);
        for (auto &x : v) x = static_cast<float>(to_type(2 * unit_fraction(g.next()) - 1, t));
        return v;
    };
    d.A = draw(std::size_t(M) * N);
    d.B = draw(std::size_t(N) * K);
    for (const float c : draw(std::size_t(M) * K)) d.C0.push_back(c);
    return d;
}

// What a kernel writes: the products summed in FP32 (or rounded to FP16 after every
// addition), scaled in FP32, rounded once to the output type; C₀ read or not.
std::vector<double> scaled_kernel(const ScaledData &d, const ScaledProduct &s, bool backward, bool fp16_sum,
                                  bool reads_c0 = true) {
    std::vector<double> C(std::size_t(d.M) * d.K);
    for (int i = 0; i < d.M; ++i)
        for (int j = 0; j < d.K; ++j) {
            float sum = 0;
            for (int q = 0; q < d.N; ++q) {
                const int p = backward ? d.N - 1 - q : q;
                sum += d.A[std::size_t(i) * d.N + p] * d.B[std::size_t(p) * d.K + j]; // exact in FP32
                if (fp16_sum) sum = static_cast<float>(fp16(sum));
            }
            const std::size_t e = std::size_t(i) * d.K + j;
            const float c0 = reads_c0 ? static_cast<float>(d.C0[e]) : 0.0f;
            const float scaled = static_cast<float>(s.alpha) * sum + static_cast<float>(s.beta) * c0;
            C[e] = to_type(scaled, s.output);
        }
    return C;
}

struct ScaledOutcome {
    long long outside = 0;
    double normwise_ratio = 0;
    std::string error_class;
};

ScaledOutcome judge_scaled(const ScaledData &d, const std::vector<double> &C, const ScaledProduct &s) {
    const Reference ref = reference_on_cpu(d.A, d.B, d.M, d.N, d.K);
    std::vector<double> V(C.size());
    ScaledOutcome o;
    for (std::size_t e = 0; e < C.size(); ++e) {
        const ScaledElement x = scaled_element(ref.value[e], ref.magnitude[e], d.C0[e], d.N, s);
        V[e] = x.value;
        if (!(std::fabs(C[e] - x.value) <= x.bound)) ++o.outside;
    }
    o.normwise_ratio = scaled_normwise_ratio(C, V, ref.value, d.C0, d.N, s);
    double error_sq = 0, p_sq = 0, terms_sq = 0, v_sq = 0; // the norms the referee sums on the GPU
    for (std::size_t e = 0; e < C.size(); ++e) {
        error_sq += (C[e] - V[e]) * (C[e] - V[e]);
        p_sq += ref.value[e] * ref.value[e];
        const double t = std::fabs(s.alpha * ref.value[e]) + std::fabs(s.beta * d.C0[e]);
        terms_sq += t * t;
        v_sq += V[e] * V[e];
    }
    o.error_class =
        scaled_error_class(std::sqrt(error_sq), std::sqrt(p_sq), std::sqrt(terms_sq), std::sqrt(v_sq), d.N, s);
    return o;
}

} // namespace

TEST_CASE("FP16 and BF16 inputs accumulated in FP32 in either order, scaled by α and β, pass on every element") {
    for (const Dtype t : {Dtype::FP16, Dtype::BF16})
        for (const auto &[M, N, K] : std::vector<std::array<int, 3>>{{9, 1, 7}, {13, 64, 11}, {6, 2048, 6}})
            for (const ScaledProduct s : {ScaledProduct{1, 0, t}, ScaledProduct{1.5, 0.5, t},
                                          ScaledProduct{-0.25, 2, t}, ScaledProduct{1, 0, Dtype::FP32}}) {
                const ScaledData d = scaled_data(M, N, K, t, 3 + N);
                for (const bool backward : {false, true}) {
                    CAPTURE(N);
                    CAPTURE(s.alpha);
                    const ScaledOutcome o = judge_scaled(d, scaled_kernel(d, s, backward, false), s);
                    CHECK(o.outside == 0);
                    CHECK(o.normwise_ratio <= 1);
                    CHECK(o.error_class == "FP32-like"); // an FP16 output's rounding included
                }
            }
}

TEST_CASE("an FP16 accumulation fails the normwise test, and C₀ left unread where β ≠ 0 fails") {
    const ScaledProduct s{1, 0.5, Dtype::FP16};
    const ScaledData d = scaled_data(6, 2048, 6, Dtype::FP16, 9);
    const ScaledOutcome fp16_sum = judge_scaled(d, scaled_kernel(d, s, false, true), s);
    CHECK(fp16_sum.normwise_ratio > 1);
    // Named for what it is in an FP16 kernel, with no tensor-core mode suggested.
    CHECK(fp16_sum.error_class.find("kept in FP16") != std::string::npos);
    CHECK(fp16_sum.error_class.find("FP32-like") == std::string::npos);
    const ScaledOutcome unread = judge_scaled(d, scaled_kernel(d, s, false, false, false), s);
    CHECK(unread.outside > 18); // of 36: all but those where β·C₀ is within the output's rounding
    CHECK(unread.normwise_ratio > 1);
}

TEST_CASE("the dtypes' unit roundoffs and their roundings near zero") {
    CHECK(unit_roundoff(Dtype::FP16) == std::ldexp(1.0, -11));
    CHECK(unit_roundoff(Dtype::BF16) == std::ldexp(1.0, -8));
    CHECK(fp16(1 + std::ldexp(1.0, -11)) == 1); // a tie to even
    CHECK(fp16(1e-9) == 0);                     // below half the smallest subnormal
    CHECK(std::fabs(fp16(3e-8) - 3e-8) <= smallest_rounding(Dtype::FP16));
    CHECK(std::isinf(fp16(70000)));
}
