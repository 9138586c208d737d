// Where the tolerance is decided: the FP32 error bounds and the verdict on one output.
//
// Elementwise: |C − R|ᵢⱼ ≤ c·γ_N·(|A|·|B|)ᵢⱼ, γ_N = N·u/(1 − N·u), u = 2⁻²⁴. Standard
// error analysis proves it for any summation order in FP32, with or without FMA, so a
// correct kernel cannot fail it; c = 2 leaves room for the reference's own rounding
// and for a final conversion, and a 3×TF32 emulation passes it from N = 7 on.
// Normwise: ‖C − R‖_F / ‖R‖_F ≤ 4·u·√N. Correct FP32 kernels measured at most 0.45·u·√N
// on an H200 (DESIGN.md), while 1×TF32 lands near 2.6e-4 on zero-mean data at every N,
// which the elementwise bound alone lets through once N is large.
#pragma once

#include "reference.hpp"
#include "testcase.hpp"
#include "verdict.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace gemm {

constexpr double fp32_unit_roundoff = 0x1p-24;
constexpr double elementwise_safety_factor = 2.0;
constexpr double normwise_factor = 4.0;
// cudaMemset(C, 0xFF) before every call: a NaN no arithmetic produces (FP32 operations
// return the canonical 0x7FFFFFFF), so an element still holding it was never written.
constexpr std::uint32_t poison_bits = 0xFFFFFFFFu;

double gamma_n(int N);
double elementwise_bound(int N, double magnitude);
double normwise_tolerance(int N);

struct BadElement {
    long long row = 0, col = 0;
    double expected = 0, got = 0, bound = 0;
};

struct OutputCheck {
    double elementwise_ratio = 0; // max |C − R| / bound over the finite elements; ≤ 1 passes
    double normwise_ratio = 0;    // (‖C − R‖_F / ‖R‖_F) / (4·u·√N); ≤ 1 passes
    long long elements = 0;
    long long out_of_bound = 0, non_finite = 0, unwritten = 0;
    std::optional<BadElement> first_out_of_bound, first_non_finite, first_unwritten;
};

OutputCheck compare_output(const float *C, const Reference &ref);

// What the guard bands and the input copies showed after a call.
struct IntegrityCheck {
    bool A_modified = false, B_modified = false;
    long long floats_written_before_C = 0; // distance from C[0] of the farthest write before it
    long long floats_written_after_C = 0;  // distance past C[M·K − 1] of the farthest write
};

struct Judgement {
    Verdict verdict = Verdict::AC;
    std::string detail; // empty for AC; for WA what is wrong and where
};

Judgement judge_output(const OutputCheck &output, const IntegrityCheck &integrity);

// A testcase's own expected C must agree with A·B; a mismatch is the setter's error
// (`file:line: why`), never a solution's WA.
std::optional<std::string> expected_output_mismatch(const TestCase &tc, const Reference &ref);

} // namespace gemm
