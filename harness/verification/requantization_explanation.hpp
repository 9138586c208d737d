// Why an int8 output element differs from the exact answer (common/requantization.hpp), in
// terms of the kernel: the wrong value is tried against the slips a requantizing kernel makes
// (rounding half away from zero, the scales folded into one factor, truncation, the output's
// zero point left out, no clamp, the sum kept in FP32), and the first that gives it is named.
#pragma once

#include "common/requantization.hpp"

#include <string>
#include <vector>

namespace gemm {

// `terms` are the element's products (A − zero_point_A)·(B − zero_point_B) in the order of the
// inner dimension, `got` its int8. The terms, not only their sum, because one slip is the
// order-dependent one: a sum kept in FP32, exact only while its partial sums stay below 2^24.
std::string explain_requantized_element(const Requantization &q, const std::vector<double> &terms, int got);

} // namespace gemm
