#include <cuda_runtime.h>

__global__ void batched_matmul_kernel(const float* A, const float* B, float* C, int batch_size,
                                      int m, int k, int n) {}

// A, B, C are device pointers (i.e. pointers to memory on the GPU)
extern "C" void solve(const float* A, const float* B, float* C, int batch_size, int m, int k,
                      int n) {
    dim3 threadsPerBlock(16, 16);
    dim3 blocksPerGrid((n + threadsPerBlock.x - 1) / threadsPerBlock.x,
                       (m + threadsPerBlock.y - 1) / threadsPerBlock.y, batch_size);

    batched_matmul_kernel<<<blocksPerGrid, threadsPerBlock>>>(A, B, C, batch_size, m, k, n);
    cudaDeviceSynchronize();
}
