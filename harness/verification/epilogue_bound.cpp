#include "verification/epilogue_bound.hpp"
#include "verification/check.hpp"

#include <algorithm>
#include <cmath>

namespace gemm {

namespace {

Epilogue chain_of(const std::vector<EpilogueStep> &steps) {
    Epilogue e;
    for (const EpilogueStep &step : steps) {
        if (e.count == Epilogue::max_steps) break;
        e.steps[e.count++] = step;
    }
    return e;
}

} // namespace

BoundedValue through_epilogue(BoundedValue x, const std::vector<EpilogueStep> &steps, double bias, double factor) {
    for (const EpilogueStep &step : steps) x = through_step(x, step, bias, factor);
    return x;
}

BoundedValue sigmoid_sum_of(const SigmoidTerm &sums, double n) {
    constexpr double u = epilogue_detail::u;
    BoundedValue sum{sums.value, sums.bound};
    sum.bound += n * u < 0.5 ? n * u / (1 - n * u) * sums.weight : sums.weight;
    return sum;
}

BoundedValue sigmoid_sum(const std::vector<BoundedValue> &product) {
    SigmoidTerm sums;
    for (const BoundedValue &p : product) {
        const SigmoidTerm t = sigmoid_term(p);
        sums.value += t.value;
        sums.bound += t.bound;
        sums.weight += t.weight;
    }
    return sigmoid_sum_of(sums, static_cast<double>(product.size()));
}

double epilogue_slope(const Epilogue &epilogue, double largest_factor) {
    double slope = 1;
    for (int i = 0; i < epilogue.count; ++i) {
        const EpilogueStep &step = epilogue.steps[i];
        if (step.op == EpilogueOp::LeakyRelu) slope *= std::max(1.0, std::fabs(step.parameter));
        if (step.op == EpilogueOp::Multiply) slope *= std::fabs(largest_factor);
        if (step.op == EpilogueOp::Scale) slope *= std::fabs(step.parameter);
        if (step.op == EpilogueOp::Swish) slope *= epilogue_detail::swish_slope;
    }
    return slope;
}

double epilogue_slope(const std::vector<EpilogueStep> &steps, double largest_factor) {
    return epilogue_slope(chain_of(steps), largest_factor);
}

double epilogue_normwise_ratio(double error_norm, double f_norm, double p_norm, double tolerance, double slope) {
    if (error_norm == 0) return 0;
    const double allowed = slope * tolerance * p_norm + 4 * epilogue_detail::u * f_norm;
    return allowed > 0 ? error_norm / allowed : INFINITY;
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
    return epilogue_normwise_ratio(std::sqrt(error_sq), std::sqrt(f_sq), std::sqrt(p_sq), normwise_tolerance(N), slope);
}

} // namespace gemm
