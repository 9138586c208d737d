// The bounds a correct FP32 kernel cannot fail when the problem applies an epilogue to the
// product (docs/verification.md, "Epilogues"): each element's exact value is the epilogue of
// the FP64 product, and its bound is the product's bound carried through each step by the
// step's largest slope, plus the FP32 rounding of the step itself. A kernel that computes the
// product in a lower precision fails the normwise test (epilogue_normwise_ratio), as a plain
// product does. The referee carries every element through on the GPU
// (referee/device_check.cu), the CPU tests through the same inline functions.
#pragma once

#include "common/epilogue.hpp"
#include "common/portable.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

namespace gemm {

// An element's exact value and the distance a correct FP32 kernel may be from it.
struct BoundedValue {
    double value = 0, bound = 0;
};

namespace epilogue_detail {

constexpr double u = 0x1p-24; // FP32's unit roundoff

// swish'(z) = σ(z)·(1 + z·(1 − σ(z))) lies in (−0.0998, 1.0998) for every z.
constexpr double swish_slope = 1.0999;

GEMM_HOST_DEVICE inline double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

// A correct kernel may evaluate σ with CUDA's expf (2 ulp) or __expf (2 + 1.16·|z| ulp), then
// a division, an addition and the product z·σ(z): relative to the result, that many ulp.
GEMM_HOST_DEVICE inline double rounding_ulps(double z) { return 8 + 2 * std::fabs(z); }

// e·slope, and one rounding of a result of that size: what a step with that slope adds.
GEMM_HOST_DEVICE inline double carried(double e, double slope, double result) {
    return slope * e + u * (std::fabs(result) + slope * e);
}

} // namespace epilogue_detail

// One element of the product (its FP64 value and elementwise bound) through one step, with the
// element's bias entry (Bias) and elementwise factor (Multiply). A SigmoidSum step is left to
// sigmoid_sum_of: it is no elementwise step.
GEMM_HOST_DEVICE inline BoundedValue through_step(BoundedValue x, const EpilogueStep &step, double bias,
                                                  double factor) {
    using namespace epilogue_detail;
    const double e = x.bound;
    switch (step.op) {
    case EpilogueOp::Bias: // fl(x̂ + b): one rounding of what the kernel holds
        x.value += bias;
        x.bound = e + u * (std::fabs(x.value) + e);
        break;
    case EpilogueOp::Relu: // exact in FP32, slope at most 1
        x.value = x.value > 0 ? x.value : 0;
        break;
    case EpilogueOp::LeakyRelu: {
        const double a = std::fabs(step.parameter), slope = a > 1 ? a : 1;
        x.value = x.value > 0 ? x.value : step.parameter * x.value;
        x.bound = carried(e, slope, x.value);
        break;
    }
    case EpilogueOp::Multiply:
        x.value *= factor;
        x.bound = carried(e, std::fabs(factor), x.value);
        break;
    case EpilogueOp::Scale:
        x.value *= step.parameter;
        x.bound = carried(e, std::fabs(step.parameter), x.value);
        break;
    case EpilogueOp::Swish: {
        const double z = x.value;
        x.value = z * sigmoid(z);
        x.bound = swish_slope * e + rounding_ulps(std::fabs(z) + e) * u * (std::fabs(x.value) + swish_slope * e);
        break;
    }
    case EpilogueOp::SigmoidSum: break;
    }
    return x;
}

GEMM_HOST_DEVICE inline BoundedValue through_epilogue(BoundedValue x, const Epilogue &epilogue, double bias = 0,
                                                      double factor = 0) {
    for (int i = 0; i < epilogue.count; ++i) x = through_step(x, epilogue.steps[i], bias, factor);
    return x;
}

// The same for a chain held in a vector (the CPU tests').
BoundedValue through_epilogue(BoundedValue product, const std::vector<EpilogueStep> &steps, double bias = 0,
                              double factor = 0);

// One term of a sigmoid-sum: σ of the element, and what the term may be off by (σ' ≤ 1/4; σ
// itself to a few ulp); `weight` is what the summation's rounding scales with.
struct SigmoidTerm {
    double value = 0, bound = 0, weight = 0;
};
GEMM_HOST_DEVICE inline SigmoidTerm sigmoid_term(BoundedValue p) {
    using namespace epilogue_detail;
    SigmoidTerm t;
    t.value = sigmoid(p.value);
    t.bound = 0.25 * p.bound + rounding_ulps(std::fabs(p.value) + p.bound) * u * t.value;
    t.weight = t.value + 0.25 * p.bound;
    return t;
}

// The sum of n terms (their values, bounds and weights summed) and its bound: summed in any
// order, γ_{n−1}·Σ weights (Higham, §4.2). From n·u = 1/2 on (8 million terms) that says
// nothing a sum of positive terms does not: a serial FP32 sum of them stagnates, and only
// |error| ≤ Σ weights holds.
BoundedValue sigmoid_sum_of(const SigmoidTerm &sums, double n);

// Tensara's sigmoid-sum over elements of the product, with the bound of a correct FP32 kernel.
BoundedValue sigmoid_sum(const std::vector<BoundedValue> &product);

// The largest slope of the steps over every input: what the normwise bound scales by.
// `largest_factor`: the largest |factor| of a Multiply step's operand.
double epilogue_slope(const Epilogue &epilogue, double largest_factor = 0);
double epilogue_slope(const std::vector<EpilogueStep> &steps, double largest_factor = 0);

// ‖C − F‖_F over (slope·normwise_tolerance(N)·‖P‖_F + 4·u·‖F‖_F), F the epilogue of the FP64
// product P, from the three norms: at most 1 for a correct FP32 kernel, above it for a TF32 or
// BF16 product. `tolerance`: normwise_tolerance(N) of the precision judged.
double epilogue_normwise_ratio(double error_norm, double f_norm, double p_norm, double tolerance, double slope);
// The same from the elements (the CPU tests').
double epilogue_normwise_ratio(const float *C, const std::vector<double> &F, const std::vector<double> &P, int N,
                               double slope);

} // namespace gemm
