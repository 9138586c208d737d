// What a problem does to each element of the product before it is stored (Tensara's
// GEMM+bias+ReLU, ×matrix+LeakyReLU, Swish×scale, sigmoid-sum): a short chain of steps,
// resolved per case (a step's parameter is the case's scalar of its role). Plain data with
// a fixed capacity, so that it travels to the runner and into a GPU kernel as it is.
#pragma once

#include "common/portable.hpp"

#include <cmath>

namespace gemm {

enum class EpilogueOp : int {
    Bias,       // + bias[column]: one value per column of C
    Relu,       // max(0, x)
    LeakyRelu,  // x > 0 ? x : parameter·x
    Multiply,   // ⊙ the factor matrix, M×K like C
    Swish,      // x·σ(x)
    Scale,      // × parameter
    SigmoidSum, // Σ σ(x) over every element: C is one number (always the last step)
};

struct EpilogueStep {
    EpilogueOp op = EpilogueOp::Relu;
    double parameter = 0; // LeakyRelu: the negative slope; Scale: the factor
};

struct Epilogue {
    static constexpr int max_steps = 4;
    int count = 0;
    EpilogueStep steps[max_steps] = {};

    GEMM_HOST_DEVICE bool empty() const { return count == 0; }
    GEMM_HOST_DEVICE bool uses(EpilogueOp op) const {
        for (int i = 0; i < count; ++i)
            if (steps[i].op == op) return true;
        return false;
    }
    GEMM_HOST_DEVICE bool reads_bias() const { return uses(EpilogueOp::Bias); }
    GEMM_HOST_DEVICE bool reads_factor() const { return uses(EpilogueOp::Multiply); }
    GEMM_HOST_DEVICE bool sums() const { return uses(EpilogueOp::SigmoidSum); }
    bool operator==(const Epilogue &o) const {
        if (count != o.count) return false;
        for (int i = 0; i < count; ++i)
            if (steps[i].op != o.steps[i].op || steps[i].parameter != o.steps[i].parameter) return false;
        return true;
    }
};

// Exact arithmetic of the steps on one element, in T (double for the reference, float
// for the baseline's own kernel); a SigmoidSum step gives σ(x), the term its sum adds.
template <typename T> GEMM_HOST_DEVICE T through_steps(T x, const Epilogue &e, T bias, T factor) {
    for (int i = 0; i < e.count; ++i) {
        const T p = static_cast<T>(e.steps[i].parameter);
        switch (e.steps[i].op) {
        case EpilogueOp::Bias: x = x + bias; break;
        case EpilogueOp::Relu: x = x > T(0) ? x : T(0); break;
        case EpilogueOp::LeakyRelu: x = x > T(0) ? x : p * x; break;
        case EpilogueOp::Multiply: x = x * factor; break;
        case EpilogueOp::Swish: x = x / (T(1) + std::exp(-x)); break;
        case EpilogueOp::Scale: x = x * p; break;
        case EpilogueOp::SigmoidSum: x = T(1) / (T(1) + std::exp(-x)); break;
        }
    }
    return x;
}

} // namespace gemm
