#include <cuda_runtime.h>

__global__ void matmul_kernel(const float* A, const float* B, float* C, int b, int i, int j, int l,
                              int k) {}

// A, B, C are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* A, const float* B, float* C, int b, int i, int j, int l, int k) {
    dim3 threadsPerBlock(16, 16);
    dim3 blocksPerGrid((k + threadsPerBlock.x - 1) / threadsPerBlock.x,
                       ((b * i * j) + threadsPerBlock.y - 1) / threadsPerBlock.y);

    matmul_kernel<<<blocksPerGrid, threadsPerBlock>>>(A, B, C, b, i, j, l, k);
    cudaDeviceSynchronize();
}
