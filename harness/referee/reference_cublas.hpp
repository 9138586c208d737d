// The FP64 reference on the GPU: cuBLAS DGEMM (pedantic math) of the FP32 inputs
// widened to double on the device (exactly), and of their absolute values. It stays on
// the device, where the output check reads it (referee/device_check.hpp).
#pragma once

#include "referee/cuda_check.hpp"

#include <cublas_v2.h>

namespace gemm {

struct DeviceReference {
    DeviceReference(int M, int N, int K, long long batch = 1);
    int M, N, K;
    long long batch;
    DeviceArray<double> value;     // (A·B)ᵢⱼ, M×K row-major, a batch's products one after another
    DeviceArray<double> magnitude; // (|A|·|B|)ᵢⱼ
};

// A and B are device arrays of M×N and N×K floats (batch of each, one after another).
void compute_reference(cublasHandle_t handle, const float *A, const float *B, DeviceReference &ref);

} // namespace gemm
