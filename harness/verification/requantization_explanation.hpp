// Why an int8 output element differs from the exact answer (common/requantization.hpp), in
// terms of the kernel: the wrong value is tried against the slips a requantizing kernel makes
// (rounding half away from zero, the scales folded into one factor, truncation, the output's
// zero point left out, no clamp), and the first that gives it is named.
#pragma once

#include "common/requantization.hpp"

#include <string>

namespace gemm {

// `sum` is the exact Σ(A − zero_point_A)·(B − zero_point_B) of the element, `got` its int8.
std::string explain_requantized_element(const Requantization &q, double sum, int got);

} // namespace gemm
