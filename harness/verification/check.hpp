// Where the tolerance is decided: the FP32 error bounds and the verdict on one output.
//
// Elementwise: |C − R|ᵢⱼ ≤ c·γ_N·(|A|·|B|)ᵢⱼ, γ_N = N·u/(1 − N·u), u = 2⁻²⁴. Standard
// error analysis proves it for any summation order in FP32, with or without FMA, so a
// correct kernel cannot fail it; c = 2 leaves room for the reference's own rounding
// and for a final conversion, and a 3×TF32 emulation passes it from N = 7 on.
// Normwise: ‖C − R‖_F / ‖R‖_F ≤ 4·u·√N. Correct FP32 kernels stay well inside it (the
// margin measured on the H200 is in docs/perf-notes.md), while 1×TF32 lands near 2.6e-4
// on zero-mean data at every N, which the elementwise bound alone lets through once N is large.
#pragma once

#include "verification/diagnosis.hpp"
#include "verification/element_check.hpp"
#include "verification/precision.hpp"
#include "verification/reference.hpp"
#include "verification/site_allclose.hpp"
#include "verification/verdict.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace gemm {

constexpr double fp32_unit_roundoff = 0x1p-24;
constexpr double elementwise_safety_factor = 2.0;
constexpr double normwise_factor = 4.0;

// The arithmetic a solution is judged against (precision.hpp): TF32 and BF16 admit
// tensor-core solutions under bounds derived the same way: each input rounded to p mantissa
// bits adds 2·u_p per product (u_p = 2^-(p+1)) to the FP32 summation term.

double gamma_n(int N);
// c·(γ_N + 2·u_p + u_p²)·(|A||B|)ᵢⱼ.
double elementwise_bound(int N, double magnitude, Precision p = Precision::FP32);
// 4·u·√N + 4·u_p: TF32 measured 0.53·u_p and BF16 1.4·u_p normwise on zero-mean data.
double normwise_tolerance(int N, Precision p = Precision::FP32);
// The least precise class whose normwise bound the error meets: "FP32-like", "TF32-like",
// "BF16-like" or "worse than BF16".
std::string error_class(double normwise_error, int N);

struct BadElement {
    long long row = 0, col = 0;
    double expected = 0, got = 0, bound = 0;
};

struct OutputCheck {
    Precision precision = Precision::FP32;
    double elementwise_ratio = 0; // max |C − R| / bound over the finite elements; ≤ 1 passes
    double normwise_ratio = 0;    // (‖C − R‖_F / ‖R‖_F) / normwise_tolerance; ≤ 1 passes
    double normwise_error = 0;    // ‖C − R‖_F / ‖R‖_F itself
    std::string error_class;      // which arithmetic the error is consistent with
    std::string map;              // diagnosis.hpp: where the bad elements are
    std::string pattern;          // and the pattern in words
    long long elements = 0;
    long long out_of_bound = 0, non_finite = 0, unwritten = 0;
    std::optional<BadElement> first_out_of_bound, first_non_finite, first_unwritten;
    // The site's own allclose over the same C, where the problem names its tolerance.
    std::optional<SiteAllclose> site;
    // An exact answer (an int8 output): any difference is wrong, there is no bound or normwise
    // test, and the first wrong element is explained (verification/requantization_explanation.hpp).
    bool exact = false;
    std::string explanation;
};

// Compares C with R on the CPU, element by element (the GPU does the same in
// referee/device_check.cu for the referee; this one is the oracle of the CPU tests).
OutputCheck compare_output(const float *C, const Reference &ref, Precision p = Precision::FP32);

// The figures both checks derive from their pass over C: the normwise error and its
// class, and the map and pattern of the bad elements.
void finish_output_check(OutputCheck &o, int N, double error_sq, double reference_sq, const BadElementCounts &bad);

// What the guard bands and the input copies showed after a call.
struct IntegrityCheck {
    bool A_modified = false, B_modified = false;
    long long floats_written_before_C = 0;               // distance from C[0] of the farthest write before it
    long long floats_written_after_C = 0;                // distance past C[M·K − 1] of the farthest write
    bool bias_modified = false, factor_modified = false; // an epilogue's operands, where it has them
};

struct Judgement {
    Verdict verdict = Verdict::AC;
    std::string detail; // empty for AC; for WA what is wrong and where
};

Judgement judge_output(const OutputCheck &output, const IntegrityCheck &integrity);

} // namespace gemm
