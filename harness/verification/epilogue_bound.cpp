#include "verification/epilogue_bound.hpp"
#include "verification/check.hpp"

#include <algorithm>
#include <cmath>

namespace gemm {

namespace {

constexpr double u = fp32_unit_roundoff;

double sigmoid(double z) { return 1 / (1 + std::exp(-z)); }

// swish'(z) = σ(z)·(1 + z·(1 − σ(z))) lies in (−0.0998, 1.0998) for every z.
constexpr double swish_slope = 1.0999;

// A correct kernel may evaluate σ with CUDA's expf (2 ulp) or __expf (2 + 1.16·|z| ulp), then
// a division, an addition and the product z·σ(z): relative to |swish(z)|, that many ulp.
double swish_rounding_ulps(double z) { return 8 + 2 * std::fabs(z); }

} // namespace

BoundedValue through_epilogue(BoundedValue x, const std::vector<EpilogueStep> &steps, double bias, double factor) {
    for (const EpilogueStep &step : steps) {
        const double e = x.bound;
        switch (step.op) {
        case EpilogueOp::Bias: // fl(x̂ + b): one rounding of what the kernel holds
            x.value += bias;
            x.bound = e + u * (std::fabs(x.value) + e);
            break;
        case EpilogueOp::Relu: // exact in FP32, slope at most 1
            x.value = std::max(0.0, x.value);
            break;
        case EpilogueOp::LeakyRelu: {
            const double slope = std::max(1.0, std::fabs(step.parameter));
            x.value = x.value > 0 ? x.value : step.parameter * x.value;
            x.bound = slope * e + u * (std::fabs(x.value) + slope * e);
            break;
        }
        case EpilogueOp::Multiply:
            x.value *= factor;
            x.bound = std::fabs(factor) * e + u * (std::fabs(x.value) + std::fabs(factor) * e);
            break;
        case EpilogueOp::Scale:
            x.value *= step.parameter;
            x.bound = std::fabs(step.parameter) * e + u * (std::fabs(x.value) + std::fabs(step.parameter) * e);
            break;
        case EpilogueOp::Swish: {
            const double z = x.value;
            x.value = z * sigmoid(z);
            x.bound =
                swish_slope * e + swish_rounding_ulps(std::fabs(z) + e) * u * (std::fabs(x.value) + swish_slope * e);
            break;
        }
        }
    }
    return x;
}

double epilogue_slope(const std::vector<EpilogueStep> &steps, double largest_factor) {
    double slope = 1;
    for (const EpilogueStep &step : steps) {
        if (step.op == EpilogueOp::LeakyRelu) slope *= std::max(1.0, std::fabs(step.parameter));
        if (step.op == EpilogueOp::Multiply) slope *= std::fabs(largest_factor);
        if (step.op == EpilogueOp::Scale) slope *= std::fabs(step.parameter);
        if (step.op == EpilogueOp::Swish) slope *= swish_slope;
    }
    return slope;
}

double epilogue_normwise_ratio(const float *C, const std::vector<double> &F, const std::vector<double> &P, int N,
                               double slope) {
    double error_sq = 0, f_sq = 0, p_sq = 0;
    for (std::size_t i = 0; i < F.size(); ++i) {
        const double d = static_cast<double>(C[i]) - F[i];
        error_sq += d * d;
        f_sq += F[i] * F[i];
        p_sq += P[i] * P[i];
    }
    const double allowed = slope * normwise_tolerance(N) * std::sqrt(p_sq) + 4 * u * std::sqrt(f_sq);
    if (error_sq == 0) return 0;
    return allowed > 0 ? std::sqrt(error_sq) / allowed : INFINITY;
}

BoundedValue sigmoid_sum(const std::vector<BoundedValue> &product) {
    BoundedValue sum;
    double terms = 0; // Σ |fl(σ)|, what the summation's rounding scales with
    for (const BoundedValue &p : product) {
        const double s = sigmoid(p.value);
        sum.value += s;
        // σ' ≤ 1/4; σ itself to a few ulp (expf or __expf, one division, one addition).
        sum.bound += 0.25 * p.bound + swish_rounding_ulps(std::fabs(p.value) + p.bound) * u * s;
        terms += s + 0.25 * p.bound;
    }
    // Summed in any order: γ_{n−1}·Σ|terms| (Higham, §4.2). From n·u = 1/2 on (8 million
    // terms) that says nothing a sum of positive terms does not: a serial FP32 sum of them
    // stagnates, and only |error| ≤ Σ|terms| holds.
    const double n = static_cast<double>(product.size());
    sum.bound += n * u < 0.5 ? n * u / (1 - n * u) * terms : terms;
    return sum;
}

} // namespace gemm
