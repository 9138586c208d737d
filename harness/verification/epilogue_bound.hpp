// The bounds a correct FP32 kernel cannot fail when the problem applies an epilogue to the
// product (docs/verification.md, "Epilogues"): each element's exact value is the epilogue of
// the FP64 product, and its bound is the product's bound carried through each step by the
// step's largest slope, plus the FP32 rounding of the step itself. A kernel that computes the
// product in a lower precision fails the normwise test (epilogue_normwise_ratio), as a plain
// product does. Not wired into the referee yet: the five Tensara problems with epilogues
// stay refused until it is (docs/problems.md).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gemm {

enum class EpilogueOp { Bias, Relu, LeakyRelu, Multiply, Swish, Scale };

struct EpilogueStep {
    EpilogueOp op = EpilogueOp::Relu;
    double parameter = 0; // LeakyRelu: the negative slope; Scale: the factor
};

// An element's exact value and the distance a correct FP32 kernel may be from it.
struct BoundedValue {
    double value = 0, bound = 0;
};

// One element of the product (its FP64 value and elementwise bound) through the steps, with
// the element's bias entry (Bias) and elementwise factor (Multiply).
BoundedValue through_epilogue(BoundedValue product, const std::vector<EpilogueStep> &steps, double bias = 0,
                              double factor = 0);

// The largest slope of the steps over every input: what the normwise bound scales by.
// `largest_factor`: the largest |factor| of a Multiply step's operand.
double epilogue_slope(const std::vector<EpilogueStep> &steps, double largest_factor = 0);

// ‖C − F‖_F over (slope·normwise_tolerance(N)·‖P‖_F + 4·u·‖F‖_F), F the epilogue of the FP64
// product P: at most 1 for a correct FP32 kernel, above it for a TF32 or BF16 product.
double epilogue_normwise_ratio(const float *C, const std::vector<double> &F, const std::vector<double> &P, int N,
                               double slope);

// Tensara's sigmoid-sum: Σ sigmoid(P_ij) over the n elements, with the bound of a correct FP32
// kernel (each term's carried bound and rounding, and the sum's in any order).
BoundedValue sigmoid_sum(const std::vector<BoundedValue> &product);

} // namespace gemm
