// The naive kernel most known-bad solutions start from, so each file shows only its flaw.
#pragma once
#include <cuda_runtime.h>

__global__ void naive_kernel(const float *A, const float *B, float *C, int M, int N, int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= K) return;
    float sum = 0.0f;
    for (int p = 0; p < N; ++p) sum += A[(size_t)row * N + p] * B[(size_t)p * K + col];
    C[(size_t)row * K + col] = sum;
}

inline void launch_naive(const float *A, const float *B, float *C, int M, int N, int K, cudaStream_t stream = 0) {
    naive_kernel<<<dim3((K + 15) / 16, (M + 15) / 16), dim3(16, 16), 0, stream>>>(A, B, C, M, N, K);
}

// Rows [first, last) of C only: A's and C's row pointers moved, B whole.
inline void launch_naive_rows(const float *A, const float *B, float *C, int first, int last, int N, int K,
                              cudaStream_t stream = 0) {
    if (last > first) launch_naive(A + (size_t)first * N, B, C + (size_t)first * K, last - first, N, K, stream);
}
