// The FP32 error bounds and the verdict on one output: what a correct FP32 kernel
// produces must pass, what TF32 or a bug produces must fail, and every failure says
// where.
#include <doctest/doctest.h>

#include "common/rng.hpp"
#include "test_support.hpp"
#include "testcases/testcase.hpp"
#include "verification/check.hpp"
#include "verification/reference.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace gemm;
using gemm::test::contains;

namespace {

struct Problem {
    int M, N, K;
    std::vector<float> A, B;
    Reference ref;
};

Problem generated(int M, int N, int K, std::uint64_t seed, Distribution d = Distribution::Uniform, double low = -1,
                  double high = 1) {
    GeneratorSpec spec{d, low, high, seed};
    Problem p{M, N, K, generate_matrix(spec, 0, MatrixId::A, M, N), generate_matrix(spec, 0, MatrixId::B, N, K), {}};
    p.ref = reference_on_cpu(p.A, p.B, M, N, K);
    return p;
}

// C in FP32 with the products summed p = 0, 1, …, N−1.
std::vector<float> fp32_forward(const Problem &p) {
    std::vector<float> C(static_cast<std::size_t>(p.M) * p.K);
    for (int i = 0; i < p.M; ++i)
        for (int j = 0; j < p.K; ++j) {
            float acc = 0;
            for (int q = 0; q < p.N; ++q) acc += p.A[i * p.N + q] * p.B[q * p.K + j];
            C[i * p.K + j] = acc;
        }
    return C;
}

// C in FP32 with the products summed p = N−1, …, 0.
std::vector<float> fp32_reverse(const Problem &p) {
    std::vector<float> C(static_cast<std::size_t>(p.M) * p.K);
    for (int i = 0; i < p.M; ++i)
        for (int j = 0; j < p.K; ++j) {
            float acc = 0;
            for (int q = p.N - 1; q >= 0; --q) acc += p.A[i * p.N + q] * p.B[q * p.K + j];
            C[i * p.K + j] = acc;
        }
    return C;
}

float pairwise_sum(const std::vector<float> &terms, std::size_t begin, std::size_t end) {
    if (end - begin == 1) return terms[begin];
    const std::size_t middle = begin + (end - begin) / 2;
    return pairwise_sum(terms, begin, middle) + pairwise_sum(terms, middle, end);
}

// C in FP32 with the products summed as a balanced binary tree.
std::vector<float> fp32_pairwise(const Problem &p) {
    std::vector<float> C(static_cast<std::size_t>(p.M) * p.K), terms(p.N);
    for (int i = 0; i < p.M; ++i)
        for (int j = 0; j < p.K; ++j) {
            for (int q = 0; q < p.N; ++q) terms[q] = p.A[i * p.N + q] * p.B[q * p.K + j];
            C[i * p.K + j] = pairwise_sum(terms, 0, terms.size());
        }
    return C;
}

// C in FP32 with 32 partial sums (like a split-K or a warp's lanes), added at the end.
std::vector<float> fp32_strided(const Problem &p) {
    std::vector<float> C(static_cast<std::size_t>(p.M) * p.K);
    for (int i = 0; i < p.M; ++i)
        for (int j = 0; j < p.K; ++j) {
            float partial[32] = {};
            for (int q = 0; q < p.N; ++q) partial[q % 32] += p.A[i * p.N + q] * p.B[q * p.K + j];
            float acc = 0;
            for (float x : partial) acc += x;
            C[i * p.K + j] = acc;
        }
    return C;
}

std::vector<float> rounded_reference(const Reference &ref) {
    std::vector<float> C(ref.value.size());
    for (std::size_t i = 0; i < C.size(); ++i) C[i] = static_cast<float>(ref.value[i]);
    return C;
}

// TF32: 10 explicit mantissa bits, the low 13 bits of an FP32 cleared with
// round-to-nearest-even.
float to_tf32(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits += 0x0FFFu + ((bits >> 13) & 1u);
    bits &= 0xFFFFE000u;
    float y;
    std::memcpy(&y, &bits, sizeof y);
    return y;
}

float from_bits(std::uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

} // namespace

TEST_CASE("gamma_n is N·u/(1 − N·u) with u = 2^-24") {
    // 1/(2^24/N − 1), computed in Python
    CHECK(gamma_n(1) == doctest::Approx(5.960464832810452e-08).epsilon(1e-14));
    CHECK(gamma_n(2) == doctest::Approx(1.1920930376163766e-07).epsilon(1e-14));
    CHECK(gamma_n(7) == doctest::Approx(4.1723268751077727e-07).epsilon(1e-14));
    CHECK(gamma_n(1000) == doctest::Approx(5.9608197700840286e-05).epsilon(1e-14));
    CHECK(fp32_unit_roundoff == 0x1p-24);
}

TEST_CASE("elementwise_bound is twice gamma_n times the magnitude") {
    CHECK(elementwise_bound(1, 3.0) == doctest::Approx(3.576278899686271e-07).epsilon(1e-14));
    CHECK(elementwise_bound(7, 0.0) == 0.0);
    CHECK(elementwise_bound(1000, 10.0) == doctest::Approx(2 * 10 * 5.9608197700840286e-05).epsilon(1e-14));
}

TEST_CASE("normwise_tolerance is 4·u·√N") {
    CHECK(normwise_tolerance(1) == 0x1p-22);
    CHECK(normwise_tolerance(4) == 0x1p-21);
    CHECK(normwise_tolerance(16) == 0x1p-20);
    CHECK(normwise_tolerance(1000) == doctest::Approx(7.539457464619587e-06).epsilon(1e-14));
}

TEST_CASE("the CPU reference computes A·B and |A|·|B| for a hand-checked product") {
    // A 2×3, B 3×2
    const std::vector<float> A{1, -2, 3, -4, 5, -6}, B{1, 2, -3, 4, 5, -6};
    const auto ref = reference_on_cpu(A, B, 2, 3, 2);
    CHECK(ref.method == "cpu-fp64");
    CHECK(ref.value == std::vector<double>{22, -24, -49, 48});
    CHECK(ref.magnitude == std::vector<double>{22, 28, 49, 64});
}

TEST_CASE("an exact result passes with both ratios 0") {
    auto p = generated(13, 29, 11, 5, Distribution::Integers, -4, 4);
    const auto C = rounded_reference(p.ref);
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.elements == 13 * 11);
    CHECK(out.elementwise_ratio == 0.0);
    CHECK(out.normwise_ratio == 0.0);
    CHECK(out.out_of_bound == 0);
    CHECK(out.non_finite == 0);
    CHECK(out.unwritten == 0);
    CHECK_FALSE(out.first_out_of_bound.has_value());
    const auto j = judge_output(out, IntegrityCheck{});
    CHECK(j.verdict == Verdict::AC);
    CHECK(j.detail.empty());
}

TEST_CASE("FP32 results summed in any order pass both bounds") {
    for (int N : {1, 7, 1000, 4096}) {
        CAPTURE(N);
        const auto p = generated(12, N, 10, 1000 + N);
        for (const auto &C : {fp32_forward(p), fp32_reverse(p), fp32_pairwise(p), fp32_strided(p)}) {
            const auto out = compare_output(C.data(), p.ref);
            CHECK(out.elementwise_ratio <= 1.0);
            CHECK(out.normwise_ratio <= 1.0);
            CHECK(out.out_of_bound == 0);
            CHECK(judge_output(out, IntegrityCheck{}).verdict == Verdict::AC);
        }
    }
}

TEST_CASE("FP32 summation leaves a measurable but small error at large N") {
    // Guards the previous test against a comparison that sees no error at all.
    const auto p = generated(12, 1000, 10, 77);
    const auto C = fp32_forward(p);
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.elementwise_ratio > 0.0);
    CHECK(out.normwise_ratio > 0.0);
    CHECK(out.normwise_ratio < 0.5);
}

TEST_CASE("inputs rounded to TF32 and multiplied exactly fail the normwise bound") {
    const auto p = generated(32, 1024, 32, 2024);
    std::vector<float> A(p.A.size()), B(p.B.size());
    for (std::size_t i = 0; i < A.size(); ++i) A[i] = to_tf32(p.A[i]);
    for (std::size_t i = 0; i < B.size(); ++i) B[i] = to_tf32(p.B[i]);
    // The rounding really changed the inputs.
    CHECK(A != p.A);
    const auto tf32 = reference_on_cpu(A, B, 32, 1024, 32);
    const auto C = rounded_reference(tf32);
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.normwise_ratio > 1.0);
    const auto j = judge_output(out, IntegrityCheck{});
    CHECK(j.verdict == Verdict::WA);
    CHECK(contains(j.detail, "error is TF32-like"));
    CHECK(contains(j.detail, "--precision tf32"));
    CHECK(out.error_class == "TF32-like");
    // The same output is within the TF32 class's bounds.
    const auto as_tf32 = compare_output(C.data(), p.ref, Precision::TF32);
    CHECK(as_tf32.normwise_ratio <= 1.0);
    CHECK(as_tf32.elementwise_ratio <= 1.0);
    CHECK(judge_output(as_tf32, IntegrityCheck{}).verdict == Verdict::AC);
}

TEST_CASE("error classes follow the normwise bounds of FP32, TF32 and BF16") {
    const int N = 1024;
    CHECK(error_class(0.9 * normwise_tolerance(N), N) == "FP32-like");
    CHECK(error_class(1.1 * normwise_tolerance(N), N) == "TF32-like");
    CHECK(error_class(1.1 * normwise_tolerance(N, Precision::TF32), N) == "BF16-like");
    CHECK(error_class(1.1 * normwise_tolerance(N, Precision::BF16), N) == "worse than BF16");
    CHECK(normwise_tolerance(N, Precision::TF32) == doctest::Approx(4 * (0x1p-24 * 32 + 0x1p-11)));
    CHECK(elementwise_bound(1, 1.0, Precision::BF16) == doctest::Approx(2 * (gamma_n(1) + 2 * 0x1p-8 + 0x1p-16)));
}

TEST_CASE("a NaN element is a wrong answer counted as non-finite") {
    const auto p = generated(4, 8, 4, 11);
    auto C = rounded_reference(p.ref);
    C[7] = std::numeric_limits<float>::quiet_NaN(); // row 1, col 3
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.non_finite == 1);
    CHECK(out.unwritten == 0);
    CHECK(out.out_of_bound == 0);
    REQUIRE(out.first_non_finite.has_value());
    CHECK(out.first_non_finite->row == 1);
    CHECK(out.first_non_finite->col == 3);
    CHECK(std::isnan(out.first_non_finite->got));
    const auto j = judge_output(out, IntegrityCheck{});
    CHECK(j.verdict == Verdict::WA);
    CHECK(contains(j.detail, "NaN"));
    CHECK(contains(j.detail, "1 of 16 elements"));
    CHECK(contains(j.detail, "row 1, col 3"));
    // a NaN must not also be reported as a normwise failure
    CHECK_FALSE(contains(j.detail, "normwise"));
}

TEST_CASE("an infinite element is counted as non-finite") {
    const auto p = generated(3, 5, 3, 12);
    auto C = rounded_reference(p.ref);
    C[0] = -std::numeric_limits<float>::infinity();
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.non_finite == 1);
    CHECK(judge_output(out, IntegrityCheck{}).verdict == Verdict::WA);
}

TEST_CASE("an element still holding the poison bits was never written") {
    const auto p = generated(4, 8, 4, 13);
    auto C = rounded_reference(p.ref);
    C[5] = from_bits(0xFFFFFFFFu); // row 1, col 1
    C[14] = from_bits(0xFFFFFFFFu);
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.unwritten == 2);
    CHECK(out.non_finite == 0);
    REQUIRE(out.first_unwritten.has_value());
    CHECK(out.first_unwritten->row == 1);
    CHECK(out.first_unwritten->col == 1);
    const auto j = judge_output(out, IntegrityCheck{});
    CHECK(j.verdict == Verdict::WA);
    CHECK(contains(j.detail, "2 of 16 elements never written; first at row 1, col 1"));
}

TEST_CASE("a NaN with other bits than the poison is not mistaken for an unwritten element") {
    const auto p = generated(2, 3, 2, 14);
    auto C = rounded_reference(p.ref);
    C[1] = from_bits(0x7FFFFFFFu); // what GPU arithmetic returns for NaN
    C[2] = from_bits(0xFFFFFFFFu);
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.non_finite == 1);
    CHECK(out.unwritten == 1);
    const auto j = judge_output(out, IntegrityCheck{});
    CHECK(contains(j.detail, "never written"));
    CHECK(contains(j.detail, "NaN"));
}

TEST_CASE("one wrong element is out of bound and named by row and column") {
    const auto p = generated(4, 8, 4, 15);
    auto C = rounded_reference(p.ref);
    C[2 * 4 + 3] += 0.5f; // row 2, col 3
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.out_of_bound == 1);
    CHECK(out.non_finite == 0);
    CHECK(out.unwritten == 0);
    CHECK(out.elementwise_ratio > 1.0);
    REQUIRE(out.first_out_of_bound.has_value());
    CHECK(out.first_out_of_bound->row == 2);
    CHECK(out.first_out_of_bound->col == 3);
    CHECK(out.first_out_of_bound->expected == p.ref.value[11]);
    CHECK(out.first_out_of_bound->got == doctest::Approx(p.ref.value[11] + 0.5).epsilon(1e-6));
    CHECK(out.first_out_of_bound->bound == doctest::Approx(elementwise_bound(8, p.ref.magnitude[11])));
    const auto j = judge_output(out, IntegrityCheck{});
    CHECK(j.verdict == Verdict::WA);
    CHECK(contains(j.detail, "1 of 16 elements outside the FP32 error bound; first at row 2, col 3"));
}

TEST_CASE("the first out-of-bound element is the first in row-major order") {
    const auto p = generated(3, 4, 5, 16);
    auto C = rounded_reference(p.ref);
    C[13] -= 1.0f; // row 2, col 3
    C[6] += 1.0f;  // row 1, col 1
    const auto out = compare_output(C.data(), p.ref);
    CHECK(out.out_of_bound == 2);
    REQUIRE(out.first_out_of_bound.has_value());
    CHECK(out.first_out_of_bound->row == 1);
    CHECK(out.first_out_of_bound->col == 1);
}

TEST_CASE("any error where |A|·|B| is zero is infinitely over the bound") {
    // A's first row is zero, so C's first row must be exactly zero.
    const std::vector<float> A{0, 0, 1, 2}, B{1, 2, 3, 4};
    const auto ref = reference_on_cpu(A, B, 2, 2, 2);
    std::vector<float> C{0, 1e-30f, 7, 10};
    const auto out = compare_output(C.data(), ref);
    CHECK(out.out_of_bound == 1);
    CHECK(std::isinf(out.elementwise_ratio));
    CHECK(judge_output(out, IntegrityCheck{}).verdict == Verdict::WA);
}

TEST_CASE("a result that only changes the sign of a zero passes") {
    const std::vector<float> A{0, 0, 1, 2}, B{1, 2, 3, 4};
    const auto ref = reference_on_cpu(A, B, 2, 2, 2);
    std::vector<float> C{-0.0f, 0.0f, 7, 10};
    const auto out = compare_output(C.data(), ref);
    CHECK(out.elementwise_ratio == 0.0);
    CHECK(out.normwise_ratio == 0.0);
    CHECK(judge_output(out, IntegrityCheck{}).verdict == Verdict::AC);
}

TEST_CASE("a modified A is a wrong answer even with a correct output") {
    IntegrityCheck g;
    g.A_modified = true;
    const auto j = judge_output(OutputCheck{}, g);
    CHECK(j.verdict == Verdict::WA);
    CHECK(contains(j.detail, "modified A"));
    CHECK_FALSE(contains(j.detail, "modified B"));
}

TEST_CASE("a modified B is a wrong answer") {
    IntegrityCheck g;
    g.B_modified = true;
    const auto j = judge_output(OutputCheck{}, g);
    CHECK(j.verdict == Verdict::WA);
    CHECK(contains(j.detail, "modified B"));
    CHECK_FALSE(contains(j.detail, "modified A"));
}

TEST_CASE("a write past the end of C says how far") {
    IntegrityCheck g;
    g.floats_written_after_C = 1;
    const auto j = judge_output(OutputCheck{}, g);
    CHECK(j.verdict == Verdict::WA);
    CHECK(j.detail == "wrote outside C (1 floats after the end)");
}

TEST_CASE("a write before the start of C says how far") {
    IntegrityCheck g;
    g.floats_written_before_C = 3;
    const auto j = judge_output(OutputCheck{}, g);
    CHECK(j.verdict == Verdict::WA);
    CHECK(j.detail == "wrote outside C (3 floats before the start)");
}

TEST_CASE("several problems are all reported, separated by semicolons") {
    IntegrityCheck g;
    g.A_modified = true;
    g.floats_written_after_C = 2;
    const auto j = judge_output(OutputCheck{}, g);
    CHECK(j.verdict == Verdict::WA);
    CHECK(j.detail == "modified A (inputs must stay unchanged); wrote outside C (2 floats after the end)");
}

TEST_CASE("a normwise ratio just above 1 fails and exactly 1 passes") {
    OutputCheck o;
    o.normwise_ratio = 1.0;
    CHECK(judge_output(o, IntegrityCheck{}).verdict == Verdict::AC);
    o.normwise_ratio = 1.001;
    CHECK(judge_output(o, IntegrityCheck{}).verdict == Verdict::WA);
}

namespace {

const char *small_explicit = "shape 2 3 4\n"      // 1
                             "data explicit\n"    // 2
                             "A\n"                // 3
                             "1   2   3\n"        // 4
                             "-4  5  -6\n"        // 5
                             "B\n"                // 6
                             "1   0  -1   2\n"    // 7
                             "0.5 1   0  -3\n"    // 8
                             "2  -2   1   0.25\n" // 9
                             "C\n";               // 10

Reference reference_of(const TestCase &tc) { return reference_on_cpu(tc.A, tc.B, tc.M, tc.N, tc.K); }

} // namespace

TEST_CASE("a right expected C in a testcase raises no complaint") {
    const auto tc =
        parse_testcase(std::string(small_explicit) + "8 -4 2 -3.25\n-13.5 17 -2 -24.5\n", "s.case", "sample/s");
    CHECK_FALSE(expected_output_mismatch(tc, reference_of(tc)).has_value());
}

TEST_CASE("an expected C within a setter's rounding of a few digits is accepted") {
    const auto tc =
        parse_testcase(std::string(small_explicit) + "8.000001 -4 2 -3.25\n-13.5 17 -2 -24.5\n", "s.case", "sample/s");
    CHECK_FALSE(expected_output_mismatch(tc, reference_of(tc)).has_value());
}

TEST_CASE("a wrong expected C is reported at its file and line") {
    const auto tc =
        parse_testcase(std::string(small_explicit) + "8 -4 2 -3.25\n-13.5 17 -2.5 -24.5\n", "s.case", "sample/s");
    const auto why = expected_output_mismatch(tc, reference_of(tc));
    REQUIRE(why.has_value());
    CHECK(why->rfind("s.case:12: ", 0) == 0);
    CHECK(contains(*why, "row 1, col 2"));
    CHECK(contains(*why, "-2.5"));
    CHECK(contains(*why, "A·B is -2"));
}

TEST_CASE("a wrong expected C in the first row is reported on the line after the C header") {
    const auto tc =
        parse_testcase(std::string(small_explicit) + "8.001 -4 2 -3.25\n-13.5 17 -2 -24.5\n", "s.case", "sample/s");
    const auto why = expected_output_mismatch(tc, reference_of(tc));
    REQUIRE(why.has_value());
    CHECK(why->rfind("s.case:11: ", 0) == 0);
    CHECK(contains(*why, "row 0, col 0"));
}

TEST_CASE("a wrong expected C after comments and blank lines inside the block is reported on its own line") {
    const auto tc = parse_testcase(std::string(small_explicit) + "8 -4 2 -3.25\n# a comment\n\n-13.5 17 -2.5 -24.5\n",
                                   "s.case", "sample/s");
    const auto why = expected_output_mismatch(tc, reference_of(tc));
    REQUIRE(why.has_value());
    CHECK(why->rfind("s.case:14: ", 0) == 0);
}

TEST_CASE("a testcase without an expected C is never a mismatch") {
    const auto tc = parse_testcase("shape 1 1 1\ndata explicit\nA\n2\nB\n3\n", "p", "sample/p");
    CHECK_FALSE(expected_output_mismatch(tc, reference_of(tc)).has_value());
}
