// The baseline's epilogue where cuBLAS has none (Tensara's Swish, ×matrix+LeakyReLU,
// sigmoid-sum; bias+ReLU too, which cuBLASLt could fuse): cuBLAS SGEMM's product, then this
// one elementwise kernel of the judge's own, timed with it. Runs only in the baseline runner.
#pragma once

#include "common/epilogue.hpp"

#include <cuda_runtime.h>

namespace gemm {

// `product` (M×K, row-major) through the epilogue into C: in place (C == product) for an
// elementwise epilogue; for a sum, every term added to C[0], which the referee zeroed.
cudaError_t apply_baseline_epilogue(const float *product, float *C, const float *bias, const float *factor,
                                    const Epilogue &epilogue, long long M, long long K);

} // namespace gemm
