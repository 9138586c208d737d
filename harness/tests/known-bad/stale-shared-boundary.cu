// expect: WA
// cases: secret/04-primes
// detail: smallest failing shape:
// The seed's warning, broken: the tiled kernel loads only the elements inside A and B
// and does not zero the rest, so a partial tile along N reuses the previous tile's
// values. Right whenever N is a multiple of 16, wrong otherwise.
#include <cuda_runtime.h>

constexpr int tile = 16;

__global__ void stale_tiles(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float a_tile[tile][tile];
    __shared__ float b_tile[tile][tile];
    const int row = blockIdx.y * tile + threadIdx.y;
    const int col = blockIdx.x * tile + threadIdx.x;
    float sum = 0.0f;
    for (int base = 0; base < N; base += tile) {
        if (row < M && base + threadIdx.x < N) a_tile[threadIdx.y][threadIdx.x] = A[row * N + base + threadIdx.x];
        if (base + threadIdx.y < N && col < K) b_tile[threadIdx.y][threadIdx.x] = B[(base + threadIdx.y) * K + col];
        __syncthreads();
        for (int p = 0; p < tile; ++p) sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < K) C[row * K + col] = sum;
}

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    stale_tiles<<<dim3((K + tile - 1) / tile, (M + tile - 1) / tile), dim3(tile, tile)>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
