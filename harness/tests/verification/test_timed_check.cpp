// The check of a timed call (Freivalds' projection with a derived bound, and sampled
// elements): it never rejects a correct FP32 output, whatever the summation order,
// and rejects a replayed, a scaled-replayed, a stale and a half-written output.
#include <doctest/doctest.h>

#include "common/rng.hpp"
#include "test_support.hpp"
#include "verification/reference.hpp"
#include "verification/timed_check.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace gemm;
using gemm::test::contains;

namespace {

struct Inputs {
    int M, N, K;
    std::vector<float> A, B;
};

Inputs inputs(int M, int N, int K, std::uint64_t seed, Distribution d = Distribution::Uniform) {
    GeneratorSpec spec{d, -1, 1, seed};
    return {M, N, K, generate_matrix(spec, 0, MatrixId::A, M, N), generate_matrix(spec, 0, MatrixId::B, N, K)};
}

float a(const Inputs &p, int i, int q) { return p.A[static_cast<std::size_t>(i) * p.N + q]; }
float b(const Inputs &p, int q, int j) { return p.B[static_cast<std::size_t>(q) * p.K + j]; }

// FP32 with FMA, in `chunks` partial sums added at the end (1: sequential; more: split-K).
std::vector<float> fp32_split(const Inputs &p, int chunks) {
    std::vector<float> C(static_cast<std::size_t>(p.M) * p.K);
    for (int i = 0; i < p.M; ++i)
        for (int j = 0; j < p.K; ++j) {
            float total = 0;
            for (int c = 0; c < chunks; ++c) {
                float part = 0;
                for (int q = c * p.N / chunks; q < (c + 1) * p.N / chunks; ++q)
                    part = std::fma(a(p, i, q), b(p, q, j), part);
                total += part;
            }
            C[static_cast<std::size_t>(i) * p.K + j] = total;
        }
    return C;
}

// FP32 products added in a scrambled order, as atomics from many blocks would add them.
std::vector<float> fp32_atomic_order(const Inputs &p) {
    std::vector<float> C(static_cast<std::size_t>(p.M) * p.K);
    for (int i = 0; i < p.M; ++i)
        for (int j = 0; j < p.K; ++j) {
            float total = 0;
            for (int k = 0; k < p.N; ++k) {
                const int q = static_cast<int>((static_cast<long long>(k) * 7919 + i + j) % p.N);
                total += a(p, i, q) * b(p, q, j);
            }
            C[static_cast<std::size_t>(i) * p.K + j] = total;
        }
    return C;
}

std::vector<double> signs(int K, std::uint64_t seed) {
    SplitMix64 g(seed);
    std::vector<double> x(K);
    for (double &v : x) v = (g.next() >> 63) ? -1.0 : 1.0;
    return x;
}

std::vector<std::pair<long long, long long>> positions(const Inputs &p, std::uint64_t seed) {
    SplitMix64 g(seed);
    std::vector<std::pair<long long, long long>> picks(sampled_elements);
    for (auto &[r, c] : picks) {
        r = static_cast<long long>(g.next() % p.M);
        c = static_cast<long long>(g.next() % p.K);
    }
    return picks;
}

TimedCallCheck check(const Inputs &p, const std::vector<float> &C, std::uint64_t seed,
                     Precision precision = Precision::FP32) {
    TimedCallCheck c;
    c.projection = project_on_cpu(p.A, p.B, C.data(), p.M, p.N, p.K, signs(p.K, seed), precision);
    c.samples = sample_on_cpu(p.A, p.B, C.data(), p.M, p.N, p.K, positions(p, seed + 1), precision);
    return c;
}

Verdict verdict_of(const Inputs &p, const std::vector<float> &C, std::uint64_t seed = 1) {
    return judge_timed_call(check(p, C, seed), Precision::FP32, p.N, static_cast<long long>(p.M) * p.K).verdict;
}

} // namespace

TEST_CASE("correct FP32 outputs pass the timed check in any summation order") {
    for (Distribution d : {Distribution::Uniform, Distribution::Normal, Distribution::Mixed, Distribution::Integers}) {
        const auto p = inputs(70, 1500, 65, 3 + static_cast<int>(d), d);
        for (const auto &C : {fp32_split(p, 1), fp32_split(p, 7), fp32_atomic_order(p)})
            for (std::uint64_t seed : {1u, 2u, 3u}) {
                CAPTURE(distribution_name(d));
                const auto c = check(p, C, seed);
                CHECK(c.projection.rows_failed == 0);
                CHECK(c.projection.worst_ratio < 1);
                CHECK(verdict_of(p, C, seed) == Verdict::AC);
            }
    }
}

TEST_CASE("an output at the very edge of the elementwise bound, aligned against x, passes the projection") {
    // The worst case of |E·x|: every element's error at 0.9 of its bound with the sign
    // of x, so the row sums reach 0.9 of the projection bound and must still pass.
    const auto p = inputs(8, 300, 50, 17);
    const Reference ref = reference_on_cpu(p.A, p.B, p.M, p.N, p.K);
    const auto x = signs(p.K, 5);
    std::vector<float> C(ref.value.size());
    for (std::size_t e = 0; e < C.size(); ++e)
        C[e] = static_cast<float>(ref.value[e] + 0.9 * x[e % p.K] * elementwise_bound(p.N, ref.magnitude[e]));
    const auto t = project_on_cpu(p.A, p.B, C.data(), p.M, p.N, p.K, x);
    CHECK(t.rows_failed == 0);
    CHECK(t.worst_ratio > 0.8); // the bound is tight, not merely loose
}

TEST_CASE("a replayed output of other inputs fails the timed check") {
    const auto p = inputs(64, 256, 64, 21), previous = inputs(64, 256, 64, 22);
    const auto judged = judge_timed_call(check(p, fp32_split(previous, 1), 4), Precision::FP32, p.N, 64 * 64);
    CHECK(judged.verdict == Verdict::WA);
    CHECK(contains(judged.detail, "Freivalds projection"));
    CHECK(contains(judged.detail, "sampled elements wrong"));
}

TEST_CASE("a scaled replay (2^e times an earlier answer) fails the timed check") {
    const auto p = inputs(64, 256, 64, 31), previous = inputs(64, 256, 64, 32);
    auto C = fp32_split(previous, 1);
    for (float &v : C) v *= 2.0f;
    CHECK(verdict_of(p, C) == Verdict::WA);
}

TEST_CASE("a stale output (one input row changed since) fails the timed check") {
    auto p = inputs(64, 256, 64, 41);
    const auto stale = fp32_split(p, 1);
    for (int q = 0; q < p.N; ++q) p.A[static_cast<std::size_t>(10) * p.N + q] *= -1.0f; // row 10 of C flips sign
    const auto c = check(p, stale, 6);
    CHECK(c.projection.rows_failed == projection_vectors * 0 + 1); // exactly row 10, in the one vector
    CHECK(c.projection.first_failed_row == 10);
    CHECK(judge_timed_call(c, Precision::FP32, p.N, 64 * 64).verdict == Verdict::WA);
}

TEST_CASE("a half-written output fails the timed check as unwritten") {
    const auto p = inputs(64, 128, 64, 51);
    auto C = fp32_split(p, 1);
    std::memset(C.data() + C.size() / 2, 0xFF, C.size() / 2 * sizeof(float));
    const auto c = check(p, C, 7);
    CHECK(c.projection.rows_failed == 32);
    CHECK(std::isnan(c.projection.first_difference));
    CHECK(c.samples.unwritten > 0);
    const auto judged = judge_timed_call(c, Precision::FP32, p.N, 64 * 64);
    CHECK(judged.verdict == Verdict::WA);
    CHECK(contains(judged.detail, "NaN or Inf"));
}

TEST_CASE("TF32 precision in the timed calls alone shows in the sample's normwise error") {
    auto p = inputs(96, 1024, 96, 61);
    auto tf32 = [](float v) { // keep 10 mantissa bits, rounding to nearest
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        bits = (bits + 0x1000u) & ~0x1FFFu;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    };
    Inputs rounded = p;
    for (float &v : rounded.A) v = tf32(v);
    for (float &v : rounded.B) v = tf32(v);
    const auto C = fp32_split(rounded, 1);
    const auto judged = judge_timed_call(check(p, C, 8), Precision::FP32, p.N, 96 * 96);
    CHECK(judged.verdict == Verdict::WA);
    CHECK(contains(judged.detail, "TF32-like"));
    CHECK(judge_timed_call(check(p, C, 8, Precision::TF32), Precision::TF32, p.N, 96 * 96).verdict == Verdict::AC);
}

TEST_CASE("a modified input or a write outside C fails the timed check") {
    const auto p = inputs(16, 32, 16, 71);
    auto c = check(p, fp32_split(p, 1), 9);
    c.integrity.B_modified = true;
    CHECK(contains(judge_timed_call(c, Precision::FP32, p.N, 256).detail, "modified B"));
}

TEST_CASE("the projection bound grows with the FP64 terms only by rounding-sized amounts") {
    CHECK(projection_bound(100, 100, 1.0, 1.0, 0.0) == doctest::Approx(4 * fp64_gamma(202)));
    CHECK(projection_bound(100, 100, 1.0, 0.0, 2.0) > 2.0);
    CHECK(projection_bound(100, 100, 1.0, 0.0, 2.0) < 2.0 * (1 + 1e-12));
}
