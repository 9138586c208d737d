#include "verification/dtype_bound.hpp"
#include "verification/check.hpp"

#include <cmath>

namespace gemm {

namespace {

// Each type's half-spacing of its significand and half its smallest subnormal.
struct Rounding {
    double unit, smallest;
};

Rounding rounding_of(Dtype t) {
    switch (t) {
    case Dtype::FP16: return {0x1p-11, 0x1p-25};
    case Dtype::BF16: return {0x1p-8, 0x1p-134};
    case Dtype::FP32: break;
    }
    return {0x1p-24, 0x1p-150};
}

} // namespace

double unit_roundoff(Dtype t) { return rounding_of(t).unit; }

double smallest_rounding(Dtype t) { return rounding_of(t).smallest; }

ScaledElement scaled_element(double product, double magnitude, double c0, int N, const ScaledProduct &s) {
    const double u = fp32_unit_roundoff;
    ScaledElement e;
    e.value = s.alpha * product + s.beta * c0;
    // The FP32 sum (products of FP16 or BF16 inputs are exact in FP32), scaled by α; then
    // α·ŝ and β·C₀ each rounded once and their sum once: 2u of their magnitudes.
    const double in_fp32 = std::fabs(s.alpha) * elementwise_bound(N, magnitude) +
                           2 * u * (std::fabs(s.alpha * product) + std::fabs(s.beta * c0));
    // The output's rounding of what the kernel holds, and near zero its subnormal spacing.
    const double u_out = unit_roundoff(s.output);
    e.bound = in_fp32 + u_out * (std::fabs(e.value) + in_fp32) + smallest_rounding(s.output);
    return e;
}

double scaled_normwise_ratio(const std::vector<double> &C, const std::vector<double> &V, const std::vector<double> &P,
                             const std::vector<double> &C0, int N, const ScaledProduct &s) {
    double error_sq = 0, p_sq = 0, terms_sq = 0, v_sq = 0;
    for (std::size_t i = 0; i < V.size(); ++i) {
        const double d = C[i] - V[i];
        error_sq += d * d;
        p_sq += P[i] * P[i];
        const double t = std::fabs(s.alpha * P[i]) + std::fabs(s.beta * (C0.empty() ? 0.0 : C0[i]));
        terms_sq += t * t;
        v_sq += V[i] * V[i];
    }
    const double allowed = std::fabs(s.alpha) * normwise_tolerance(N) * std::sqrt(p_sq) +
                           2 * fp32_unit_roundoff * std::sqrt(terms_sq) + unit_roundoff(s.output) * std::sqrt(v_sq);
    if (error_sq == 0) return 0;
    return allowed > 0 ? std::sqrt(error_sq) / allowed : INFINITY;
}

} // namespace gemm
