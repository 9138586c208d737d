// A LeetGPU matrix-multiplication solution in the older starter's form: `#include "solve.h"`
// and a plain `void solve(...)`, no extern "C". It compiles and is found as it is because
// the judge's own solve.h (harness/compile/starter/solve.h) gives solve() C linkage.
// Judged by the tests (test_compile.cpp on the CPU, test_judge_end_to_end.cpp on the GPU): AC.
#include "solve.h"
#include <cuda_runtime.h>

__global__ void matrix_multiplication_kernel(const float *A, const float *B, float *C, int M, int N, int K) {
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < K) {
        float sum = 0.0f;
        for (int i = 0; i < N; i++) sum += A[(size_t)row * N + i] * B[(size_t)i * K + col];
        C[(size_t)row * K + col] = sum;
    }
}

// A, B, C are device pointers (i.e. pointers to memory on the GPU)
void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    dim3 threadsPerBlock(16, 16);
    dim3 blocksPerGrid((K + threadsPerBlock.x - 1) / threadsPerBlock.x,
                       (M + threadsPerBlock.y - 1) / threadsPerBlock.y);
    matrix_multiplication_kernel<<<blocksPerGrid, threadsPerBlock>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
