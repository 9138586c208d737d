// The FP64 reference on the GPU, for problems too large for the CPU: cuBLAS DGEMM of
// the FP32 inputs widened to double (exactly), and of their absolute values.
#pragma once

#include "core/reference.hpp"

#include <cublas_v2.h>

namespace gemm {

Reference reference_on_gpu(cublasHandle_t handle, const std::vector<float> &A, const std::vector<float> &B, int M,
                           int N, int K);

// Row-major C = A·B through column-major cuBLAS: Cᵀ = Bᵀ·Aᵀ, so B goes first.
void row_major_sgemm(cublasHandle_t handle, const float *A, const float *B, float *C, int M, int N, int K);

} // namespace gemm
