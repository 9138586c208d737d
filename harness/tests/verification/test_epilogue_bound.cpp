// The epilogues' bounds (verification/epilogue_bound.hpp): FP32 kernels that sum in any order
// and evaluate the epilogue in FP32 pass them on every element; a TF32 product fails the
// normwise test; a wrong slope or a missing term fails.
#include <doctest/doctest.h>

#include "common/rng.hpp"
#include "verification/check.hpp"
#include "verification/epilogue_bound.hpp"
#include "verification/reference.hpp"

#include <cmath>
#include <cstring>
#include <vector>

using namespace gemm;

namespace {

struct Inputs {
    int M, N, K;
    std::vector<float> A, B, bias, factor;
};

Inputs inputs(int M, int N, int K, std::uint64_t seed) {
    Inputs in{M, N, K, {}, {}, {}, {}};
    SplitMix64 g(seed);
    const auto draw = [&g](std::size_t n, float scale) {
        std::vector<float> v(n);
        for (auto &x : v) x = scale * (static_cast<float>(g.next() % 2000001) / 1000000.0f - 1.0f);
        return v;
    };
    in.A = draw(std::size_t(M) * N, 1);
    in.B = draw(std::size_t(N) * K, 1);
    in.bias = draw(K, 2);
    in.factor = draw(std::size_t(M) * K, 3);
    return in;
}

float tf32(float x) { // rounded to 10 mantissa bits, to nearest
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = (bits + 0x1000u) & ~0x1FFFu;
    std::memcpy(&x, &bits, sizeof x);
    return x;
}

// The product in FP32, summed forward or backward, its inputs optionally rounded to TF32.
std::vector<float> product(const Inputs &in, bool backward, bool as_tf32 = false) {
    std::vector<float> C(std::size_t(in.M) * in.K);
    for (int i = 0; i < in.M; ++i)
        for (int j = 0; j < in.K; ++j) {
            float sum = 0;
            for (int q = 0; q < in.N; ++q) {
                const int p = backward ? in.N - 1 - q : q;
                const float a = in.A[std::size_t(i) * in.N + p], b = in.B[std::size_t(p) * in.K + j];
                sum += as_tf32 ? tf32(a) * tf32(b) : a * b;
            }
            C[std::size_t(i) * in.K + j] = sum;
        }
    return C;
}

// The epilogue as a kernel computes it, in FP32 with expf.
float epilogue_in_fp32(float x, const std::vector<EpilogueStep> &steps, float bias, float factor) {
    for (const auto &s : steps) {
        if (s.op == EpilogueOp::Bias) x = x + bias;
        if (s.op == EpilogueOp::Relu) x = x > 0 ? x : 0.0f;
        if (s.op == EpilogueOp::LeakyRelu) x = x > 0 ? x : static_cast<float>(s.parameter) * x;
        if (s.op == EpilogueOp::Multiply) x = x * factor;
        if (s.op == EpilogueOp::Scale) x = x * static_cast<float>(s.parameter);
        if (s.op == EpilogueOp::Swish) x = x / (1.0f + expf(-x));
    }
    return x;
}

// Tensara's five epilogue chains (testcases/tensara/*/problem.json), and one of a larger scale.
const std::vector<std::vector<EpilogueStep>> chains = {
    {{EpilogueOp::Bias}, {EpilogueOp::Relu}},
    {{EpilogueOp::Bias}, {EpilogueOp::Swish}, {EpilogueOp::Scale, 1.0}},
    {{EpilogueOp::Multiply}, {EpilogueOp::LeakyRelu, 0.01}},
    {{EpilogueOp::Swish}, {EpilogueOp::Scale, 1.0}},
    {{EpilogueOp::Swish}, {EpilogueOp::Scale, -2.5}},
};

struct Outcome {
    long long outside = 0;
    double normwise_ratio = 0;
};

Outcome judge(const Inputs &in, const std::vector<float> &C, const std::vector<EpilogueStep> &chain,
              const std::vector<EpilogueStep> &kernel_chain) {
    const Reference ref = reference_on_cpu(in.A, in.B, in.M, in.N, in.K);
    std::vector<float> out(C.size());
    std::vector<double> F(C.size());
    double largest_factor = 0;
    Outcome o;
    for (std::size_t e = 0; e < C.size(); ++e) {
        const int j = static_cast<int>(e % in.K);
        out[e] = epilogue_in_fp32(C[e], kernel_chain, in.bias[j], in.factor[e]);
        const BoundedValue exact = through_epilogue({ref.value[e], elementwise_bound(in.N, ref.magnitude[e])}, chain,
                                                    in.bias[j], in.factor[e]);
        F[e] = exact.value;
        largest_factor = std::max(largest_factor, std::fabs(static_cast<double>(in.factor[e])));
        if (!(std::fabs(out[e] - exact.value) <= exact.bound)) ++o.outside;
    }
    o.normwise_ratio = epilogue_normwise_ratio(out.data(), F, ref.value, in.N, epilogue_slope(chain, largest_factor));
    return o;
}

} // namespace

TEST_CASE("FP32 products summed in any order, with the epilogue in FP32, pass every epilogue's bounds") {
    for (const auto &[M, N, K] : std::vector<std::array<int, 3>>{{17, 33, 19}, {8, 1024, 8}, {3, 1, 5}}) {
        const Inputs in = inputs(M, N, K, 7 + N);
        for (const bool backward : {false, true}) {
            const auto C = product(in, backward);
            for (const auto &chain : chains) {
                CAPTURE(N);
                const Outcome o = judge(in, C, chain, chain);
                CHECK(o.outside == 0);
                CHECK(o.normwise_ratio <= 1);
            }
        }
    }
}

TEST_CASE("a TF32 product fails the epilogue's normwise test, and a wrong slope its elementwise one") {
    const Inputs in = inputs(8, 2048, 8, 11);
    const auto C = product(in, false, true);
    for (const auto &chain : chains) CHECK(judge(in, C, chain, chain).normwise_ratio > 1);
    const auto right = product(in, false);
    const std::vector<EpilogueStep> asked{{EpilogueOp::Multiply}, {EpilogueOp::LeakyRelu, 0.01}};
    const std::vector<EpilogueStep> done{{EpilogueOp::Multiply}, {EpilogueOp::LeakyRelu, 0.02}};
    CHECK(judge(in, right, asked, done).outside > 0);
    const std::vector<EpilogueStep> no_bias{{EpilogueOp::Relu}};
    CHECK(judge(in, right, chains[0], no_bias).outside > 0);
}

TEST_CASE("sigmoid-sum: an FP32 sum in either order is within its bound, and one term left out is not") {
    const Inputs in = inputs(31, 64, 29, 5);
    const Reference ref = reference_on_cpu(in.A, in.B, in.M, in.N, in.K);
    std::vector<BoundedValue> terms;
    for (std::size_t e = 0; e < ref.value.size(); ++e)
        terms.push_back({ref.value[e], elementwise_bound(in.N, ref.magnitude[e])});
    const BoundedValue exact = sigmoid_sum(terms);
    const auto C = product(in, true);
    float forward = 0, backward = 0, missing = 0;
    for (std::size_t e = 0; e < C.size(); ++e) {
        forward += 1.0f / (1.0f + expf(-C[e]));
        backward += 1.0f / (1.0f + expf(-C[C.size() - 1 - e]));
        if (e > 0) missing += 1.0f / (1.0f + expf(-C[e]));
    }
    CHECK(std::fabs(forward - exact.value) <= exact.bound);
    CHECK(std::fabs(backward - exact.value) <= exact.bound);
    CHECK(std::fabs(missing - exact.value) > exact.bound);
    CHECK(exact.bound < 1e-2 * exact.value); // a bound that still says something at 899 terms
}
