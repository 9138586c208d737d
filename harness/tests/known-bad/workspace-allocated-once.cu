// expect: AC
// cases: secret/04-primes secret/15-around-1000
// An honest solution that allocates a workspace on its first call and reuses it on
// every later one (here: a transposed copy of B, rebuilt from each call's B). Keeping
// memory between calls is fine; keeping answers is not.
#include "naive_kernel.cuh"

namespace {

__global__ void transpose(const float *B, float *Bt, int N, int K) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < (size_t)N * K;
         i += (size_t)gridDim.x * blockDim.x)
        Bt[(i % K) * N + i / K] = B[i];
}

__global__ void multiply_transposed(const float *A, const float *Bt, float *C, int M, int N, int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= K) return;
    float sum = 0;
    for (int p = 0; p < N; ++p) sum += A[(size_t)row * N + p] * Bt[(size_t)col * N + p];
    C[(size_t)row * K + col] = sum;
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static float *workspace = nullptr;
    static size_t capacity = 0;
    const size_t needed = (size_t)N * K;
    if (needed > capacity) {
        cudaFree(workspace);
        cudaMalloc(&workspace, needed * sizeof(float));
        capacity = needed;
    }
    transpose<<<1024, 256>>>(B, workspace, N, K);
    const dim3 block(16, 16), grid((K + 15) / 16, (M + 15) / 16);
    multiply_transposed<<<grid, block>>>(A, workspace, C, M, N, K);
    cudaDeviceSynchronize();
}
