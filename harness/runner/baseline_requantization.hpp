// The baseline's requantization for an int8 problem (LeetGPU #32), which cuBLAS has no routine
// for: its int8 GEMM sums A·B as stored (no zero points) into the runner's scratch, and this
// kernel of the judge's own takes the zero points off and stores each element as the problem
// says (common/requantization.hpp). Runs only in the baseline runner, timed with cuBLAS's call.
#pragma once

#include "common/requantization.hpp"

#include <cuda_runtime.h>

namespace gemm {

// `sums` (M×K, row-major) are Σ A·B over N for the int8 A (M×N) and B (N×K) as stored: int32
// where cuBLAS summed in integers, float where it could only sum in FP32. `lines` is scratch
// for M + K ints, used where a zero point is not 0: Σ(a − zA)(b − zB) = Σab − zB·Σa − zA·Σb +
// N·zA·zB, from A's row sums and B's column sums.
template <typename Sum>
cudaError_t apply_baseline_requantization(const Sum *sums, const signed char *A, const signed char *B, signed char *C,
                                          int *lines, const Requantization &q, long long M, long long N, long long K);

} // namespace gemm
