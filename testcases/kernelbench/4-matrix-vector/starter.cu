#include <cuda_runtime.h>

__global__ void matrix_vector_kernel(const float* A, const float* B, float* C, int M, int K) {}

// A, B, C are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* A, const float* B, float* C, int M, int K) {
    int threadsPerBlock = 256;
    int blocksPerGrid = (M + threadsPerBlock - 1) / threadsPerBlock;

    matrix_vector_kernel<<<blocksPerGrid, threadsPerBlock>>>(A, B, C, M, K);
    cudaDeviceSynchronize();
}
