// expect: RE
// cases: secret/04-primes secret/09-mult64-minus-one
// flags: --sanitize
// detail: racecheck
// The seed's warning, ignored: the tiled kernel without its second __syncthreads().
// A fast warp overwrites the tiles while a slow one still reads them. On the GPU the
// answer is usually right anyway — only racecheck sees the hazard, at its source line.
#include <cuda_runtime.h>

constexpr int tile = 16;

__global__ void racy_tiles(const float *A, const float *B, float *C, int M, int N, int K) {
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
    }
    if (row < M && col < K) C[row * K + col] = sum;
}

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    racy_tiles<<<dim3((K + tile - 1) / tile, (M + tile - 1) / tile), dim3(tile, tile)>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
