// The bounds a correct kernel cannot fail for a problem whose operands or output are not FP32
// (docs/verification.md, "Other dtypes"): FP16 or BF16 inputs multiplied exactly in FP32 and
// accumulated in FP32, then C = α·(A·B) + β·C₀ in FP32 and one rounding to the output type.
// A kernel that accumulates in FP16 fails the normwise test. Not wired into the referee yet:
// LeetGPU #22 and #57 stay refused until it is (docs/problems.md).
#pragma once

#include <cstddef>
#include <vector>

namespace gemm {

enum class Dtype { FP32, FP16, BF16 };

// Half the spacing of the type's significand: 2⁻²⁴ (FP32), 2⁻¹¹ (FP16), 2⁻⁸ (BF16).
double unit_roundoff(Dtype t);
// Half its smallest subnormal, the absolute rounding error near zero: 2⁻¹⁵⁰, 2⁻²⁵, 2⁻¹³⁴.
double smallest_rounding(Dtype t);

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

// ‖C − V‖_F over (|α|·4u√N·‖P‖_F + 2u·‖|α·P| + |β·C₀|‖_F + u_out·‖V‖_F): at most 1 for a correct
// kernel; far above it for one that accumulates in FP16 (its error grows as u₁₆·√N·‖P‖).
double scaled_normwise_ratio(const std::vector<double> &C, const std::vector<double> &V, const std::vector<double> &P,
                             const std::vector<double> &C0, int N, const ScaledProduct &s);

} // namespace gemm
