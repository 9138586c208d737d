#include "verification/dtype_bound.hpp"
#include "verification/check.hpp"
#include "verification/precision.hpp"

#include <cmath>

namespace gemm {

ScaledElement scaled_element(double product, double magnitude, double c0, int N, const ScaledProduct &s) {
    return scaled_element_of(product, elementwise_bound(N, magnitude), c0, s);
}

double scaled_normwise_ratio(double error_norm, double p_norm, double terms_norm, double v_norm, double tolerance,
                             const ScaledProduct &s) {
    const double allowed = std::fabs(s.alpha) * tolerance * p_norm + 2 * fp32_unit_roundoff * terms_norm +
                           unit_roundoff(s.output) * v_norm;
    if (error_norm == 0) return 0;
    return allowed > 0 ? error_norm / allowed : INFINITY;
}

std::string scaled_error_class(double error_norm, double p_norm, double terms_norm, double v_norm, int N,
                               const ScaledProduct &s) {
    for (const auto &t : precisions()) {
        const double tolerance = normwise_tolerance(N, t.precision);
        if (scaled_normwise_ratio(error_norm, p_norm, terms_norm, v_norm, tolerance, s) > 1) continue;
        if (s.output != Dtype::FP16 || t.precision == Precision::FP32) return t.error_class;
        return std::string(t.error_class) + ", as a sum or a step kept in FP16 gives";
    }
    return s.output == Dtype::FP16 ? "worse than BF16, more than a sum kept in FP16 loses" : "worse than BF16";
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
    return scaled_normwise_ratio(std::sqrt(error_sq), std::sqrt(p_sq), std::sqrt(terms_sq), std::sqrt(v_sq),
                                 normwise_tolerance(N), s);
}

} // namespace gemm
