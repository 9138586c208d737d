// The verdict on one element of C, written once for the CPU check (check.cpp) and the
// GPU check (referee/device_check.cu), so the two cannot disagree on what is wrong.
#pragma once

#include "common/portable.hpp"

#include <cstdint>

namespace gemm {

// cudaMemset(C, 0xFF) before every call: a NaN no arithmetic produces (FP32 operations
// return the canonical 0x7FFFFFFF), so an element still holding it was never written.
constexpr std::uint32_t poison_bits = 0xFFFFFFFFu;

enum class ElementState { Right, Unwritten, NonFinite, OutOfBound };

struct ElementVerdict {
    ElementState state = ElementState::Right;
    double error = 0; // |C − R| for finite elements
    double ratio = 0; // error / bound; infinite when the bound is 0 and the error is not
};

// `bits` are C's bits, `reference` the FP64 product and `bound` the elementwise bound.
GEMM_HOST_DEVICE inline ElementVerdict check_element(std::uint32_t bits, float value, double reference, double bound) {
    ElementVerdict v;
    if (bits == poison_bits) {
        v.state = ElementState::Unwritten;
        return v;
    }
    // Exponent all ones: NaN or ±Inf (isfinite without <cmath>, the same on both sides).
    if ((bits & 0x7F800000u) == 0x7F800000u) {
        v.state = ElementState::NonFinite;
        return v;
    }
    const double difference = static_cast<double>(value) - reference;
    v.error = difference < 0 ? -difference : difference;
    if (v.error > 0) v.ratio = bound > 0 ? v.error / bound : 1.0 / 0.0;
    if (v.error > bound) v.state = ElementState::OutOfBound;
    return v;
}

} // namespace gemm
