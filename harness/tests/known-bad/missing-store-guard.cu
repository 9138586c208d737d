// expect: WA
// cases: secret/04-primes
// detail: wrote outside C
// The tiled kernel with its final `if (row < M && col < K)` dropped: threads of the
// partial blocks store zeros past the end of each row and past the end of C.
#include <cuda_runtime.h>

constexpr int tile = 16;

__global__ void unguarded_store(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float a_tile[tile][tile];
    __shared__ float b_tile[tile][tile];
    const int row = blockIdx.y * tile + threadIdx.y;
    const int col = blockIdx.x * tile + threadIdx.x;
    float sum = 0.0f;
    for (int base = 0; base < N; base += tile) {
        a_tile[threadIdx.y][threadIdx.x] = (row < M && base + threadIdx.x < N) ? A[row * N + base + threadIdx.x] : 0.0f;
        b_tile[threadIdx.y][threadIdx.x] =
            (base + threadIdx.y < N && col < K) ? B[(base + threadIdx.y) * K + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < tile; ++p) sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
        __syncthreads();
    }
    C[row * K + col] = sum;
}

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    unguarded_store<<<dim3((K + tile - 1) / tile, (M + tile - 1) / tile), dim3(tile, tile)>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
