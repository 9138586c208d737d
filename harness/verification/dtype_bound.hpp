// The bounds a correct kernel cannot fail for a problem whose operands or output are not FP32
// (docs/verification.md, "Other dtypes"): FP16 or BF16 inputs multiplied exactly in FP32 and
// accumulated in FP32, then C = α·(A·B) + β·C₀ in FP32 and one rounding to the output type.
// A kernel that accumulates in FP16 fails the normwise test. The referee carries every element
// on the GPU (referee/device_check.cu) through the same inline functions as the CPU tests.
#pragma once

#include "common/portable.hpp"

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace gemm {

enum class Dtype { FP32, FP16, BF16 };

// Half the spacing of the type's significand: 2⁻²⁴ (FP32), 2⁻¹¹ (FP16), 2⁻⁸ (BF16).
GEMM_HOST_DEVICE inline double unit_roundoff(Dtype t) {
    return t == Dtype::FP16 ? 0x1p-11 : t == Dtype::BF16 ? 0x1p-8 : 0x1p-24;
}
// Half its smallest subnormal, the absolute rounding error near zero: 2⁻¹⁵⁰, 2⁻²⁵, 2⁻¹³⁴.
GEMM_HOST_DEVICE inline double smallest_rounding(Dtype t) {
    return t == Dtype::FP16 ? 0x1p-25 : t == Dtype::BF16 ? 0x1p-134 : 0x1p-150;
}

struct ScaledProduct {
    double alpha = 1, beta = 0;
    Dtype output = Dtype::FP32;
};

// One element's exact value α·P + β·C₀ and its bound, from the FP64 product P, the magnitude
// |A|·|B| and C₀ (the output's value before the call): the FP32 accumulation's c·γ_N·|α|·|A||B|,
// the FP32 scaling's two roundings, and the output type's rounding of the result.
struct ScaledElement {
    double value = 0, bound = 0;
};
ScaledElement scaled_element(double product, double magnitude, double c0, int N, const ScaledProduct &s);

// The same from the product's own FP32 bound (c·γ_N·(|A||B|)ᵢⱼ, which the caller has).
GEMM_HOST_DEVICE inline ScaledElement scaled_element_of(double product, double product_bound, double c0,
                                                        const ScaledProduct &s) {
    constexpr double u = 0x1p-24;
    ScaledElement e;
    e.value = s.alpha * product + s.beta * c0;
    // The FP32 sum (products of FP16 or BF16 inputs are exact in FP32), scaled by α; then
    // α·ŝ and β·C₀ each rounded once and their sum once: 2u of their magnitudes.
    const double in_fp32 =
        std::fabs(s.alpha) * product_bound + 2 * u * (std::fabs(s.alpha * product) + std::fabs(s.beta * c0));
    // The output's rounding of what the kernel holds, and near zero its subnormal spacing.
    e.bound = in_fp32 + unit_roundoff(s.output) * (std::fabs(e.value) + in_fp32) + smallest_rounding(s.output);
    return e;
}

// ‖C − V‖_F over (|α|·4u√N·‖P‖_F + 2u·‖|α·P| + |β·C₀|‖_F + u_out·‖V‖_F): at most 1 for a correct
// kernel; far above it for one that accumulates in FP16 (its error grows as u₁₆·√N·‖P‖).
double scaled_normwise_ratio(const std::vector<double> &C, const std::vector<double> &V, const std::vector<double> &P,
                             const std::vector<double> &C0, int N, const ScaledProduct &s);
// The same from the norms: `tolerance` is normwise_tolerance(N) of the precision judged.
double scaled_normwise_ratio(double error_norm, double p_norm, double terms_norm, double v_norm, double tolerance,
                             const ScaledProduct &s);

// The error's class against the same allowance with each precision's accumulation in turn
// ("FP32-like", "TF32-like", …, verification/precision.hpp), so that a correct FP16-output
// kernel is "FP32-like" although its output rounding alone is TF32's size. Below FP32 with an
// FP16 output the class says what it looks like in an FP16 kernel, not which tensor-core
// mode: FP16 inputs lose nothing in TF32.
std::string scaled_error_class(double error_norm, double p_norm, double terms_norm, double v_norm, int N,
                               const ScaledProduct &s);

} // namespace gemm
