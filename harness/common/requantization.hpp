// An int8 problem's output (LeetGPU #32): the exact integer sum Σ(A − zero_point_A)·(B −
// zero_point_B) taken to int8 by the problem's own FP32 steps, in its order: the sum converted
// to FP32, multiplied by scale_A, then by scale_B, divided by scale_C (each step rounded to
// nearest), rounded half to even, shifted by zero_point_C and clamped to [-128, 127]. The
// answer is exact, so the referee's check, the CPU tests and the runner's baseline all take it
// from this one function: a second copy could round one half-way case the other way.
#pragma once

#include "common/portable.hpp"

#include <cmath>
#include <map>
#include <string>

namespace gemm {

struct Requantization {
    static constexpr int lowest = -128, highest = 127;
    float scale_A = 1, scale_B = 1, scale_C = 1; // as the solution receives them: FP32
    int zero_point_A = 0, zero_point_B = 0, zero_point_C = 0;

    // The sum scaled as the problem says. On the GPU the intrinsics keep nvcc from fusing or
    // reordering the steps; on the host (SSE) each operation is one IEEE float operation.
    GEMM_HOST_DEVICE float scaled(double sum) const {
        const float s = static_cast<float>(sum);
#if defined(__CUDA_ARCH__)
        return __fdiv_rn(__fmul_rn(__fmul_rn(s, scale_A), scale_B), scale_C);
#else
        return s * scale_A * scale_B / scale_C;
#endif
    }
    // The stored int8 value. rint rounds half to even; the shift is added in double (exact for
    // any rounded float), so a scaled value past int32's range saturates in the clamp instead
    // of overflowing.
    GEMM_HOST_DEVICE int output(double sum) const {
        const double shifted = static_cast<double>(rintf(scaled(sum))) + zero_point_C;
        return shifted < lowest ? lowest : shifted > highest ? highest : static_cast<int>(shifted);
    }
};

// The case's scalars by role (scale_A … zero_point_C; a missing one is the identity): the
// scales rounded to FP32, as the entry point receives them.
inline Requantization requantization_of(const std::map<std::string, double> &scalars) {
    const auto value = [&](const char *role, double otherwise) {
        const auto found = scalars.find(role);
        return found == scalars.end() ? otherwise : found->second;
    };
    Requantization q;
    q.scale_A = static_cast<float>(value("scale_A", 1));
    q.scale_B = static_cast<float>(value("scale_B", 1));
    q.scale_C = static_cast<float>(value("scale_C", 1));
    q.zero_point_A = static_cast<int>(value("zero_point_A", 0));
    q.zero_point_B = static_cast<int>(value("zero_point_B", 0));
    q.zero_point_C = static_cast<int>(value("zero_point_C", 0));
    return q;
}

} // namespace gemm
