// Rung 2 — tiled: 16×16 tiles of A and B staged through shared memory.
//
// Technique (the seed's second kernel): the reduction dimension N is cut into
// 16-wide tiles. For each tile, every thread of a 16×16 block loads one element of
// the A tile and one of the B tile (consecutive threadIdx.x → consecutive addresses,
// so both loads coalesce), the block waits, then each thread does 16 multiply-adds
// from shared memory. Every element fetched from global memory is used 16 times:
// T/4 = 4 FLOP/byte instead of 0.25.
//
//          N (reduction)                 K
//        ┌──┬──┬──┐                 ┌────────┐
//  rows  │t0│t1│t2│ A tile 16×16    │  t0    │ B tile 16×16
//  of the└──┴──┴──┘ slides right    │  t1    │ slides down
//  block                            │  t2    │
//                                   └────────┘
// Edges: elements outside A or B are loaded as 0, so partial tiles add nothing, and
// no thread returns early — every thread must reach both barriers. The first barrier
// makes the tile complete before anyone reads it; the second keeps a fast thread
// from overwriting the tile while a slow one still reads it. Only threads inside C store.
// Changed from rung 1 (01-naive.cu): shared-memory tiles; 16× fewer global loads.
// Measured on an NVIDIA H200 (judge medians, cuBLAS in the same run; docs/perf-notes.md):
// 4096³ in 17.0 ms = 8.09 TFLOP/s, 16% of cuBLAS SGEMM (50.8 TFLOP/s), 1.5× rung 1; now
// bound by shared-memory loads: 1.25 LDS per FFMA (16 LDS + 4 LDS.128 per 16 FFMA).
#include <cuda_runtime.h>

namespace {

constexpr int tile = 16;

__global__ void tiled_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float a_tile[tile][tile];
    __shared__ float b_tile[tile][tile];
    const int row = blockIdx.y * tile + threadIdx.y;
    const int col = blockIdx.x * tile + threadIdx.x;
    float sum = 0.0f;
    for (int base = 0; base < N; base += tile) {
        const int a_col = base + threadIdx.x;
        const int b_row = base + threadIdx.y;
        a_tile[threadIdx.y][threadIdx.x] = (row < M && a_col < N) ? A[static_cast<size_t>(row) * N + a_col] : 0.0f;
        b_tile[threadIdx.y][threadIdx.x] = (b_row < N && col < K) ? B[static_cast<size_t>(b_row) * K + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < tile; ++p) sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
        __syncthreads();
    }
    if (row < M && col < K) C[static_cast<size_t>(row) * K + col] = sum;
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const dim3 block(tile, tile);
    const dim3 grid((K + tile - 1) / tile, (M + tile - 1) / tile);
    tiled_gemm<<<grid, block>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
