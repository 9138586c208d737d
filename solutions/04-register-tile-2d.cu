// Rung 4 — register_tile_2d: each thread computes an 8×8 block of C (2D register blocking).
//
// Technique: a 128×128 tile of C per block of 256 threads, the reduction dimension N cut
// into 8-deep slices. Each thread keeps an 8×8 block of sums in 64 registers. Per step of
// the reduction it copies 8 values of the A slice (a column of its rows) and 8 of the
// B slice (a row of its columns) into registers and forms their outer product: 16 values
// from shared memory feed 64 FMAs (ptxas fetches them as 32 LDS.128 per 8-deep slice of
// 512 FMAs: 0.06 loads per FMA, against rung 3's 0.375). Each value brought from global
// memory is now used 128 times instead of 64.
//
//                      B slice 8×128, 8 columns per thread column
//                      ┌────┬────┬────┬─────┬────┐
//                      │ c0 │ c1 │ c2 │ ... │c15 │
//                      └────┴────┴────┴─────┴────┘
//   A slice 128×8      ┌────┬────┬────┬─────┬────┐
//   8 rows per   r0    │ t0 │ t1 │ t2 │ ... │t15 │  thread t: rows 8·(t / 16) … +7,
//   thread row   r1    │t16 │ …  │    │     │t31 │            columns 8·(t % 16) … +7
//                …     │ …  │    │    │     │    │
//                r15   │t240│ …  │    │     │t255│
//                      └────┴────┴────┴─────┴────┘
// Loads stay scalar (4 elements of each slice per thread, zero-filled outside the
// matrices); both slices are stored as they lie in memory, so the 8 A values a thread
// needs sit 8 floats apart. Every thread reaches both barriers; only stores are guarded.
// Changed from rung 3 (03-thread-tile-1d.cu): an 8×8 block per thread instead of 8×1;
// 128×128 tiles, 256 threads.
// Measured on an NVIDIA H200 (bench, same run as cuBLAS; docs/perf-notes.md): 4096³
// 21.8 TFLOP/s = 0.453× cuBLAS SGEMM, 1.34× rung 3; 8192³ 22.4 = 0.441×; 8192×6144×4096
// 22.1 = 0.443×; 4097×4095×4093 21.3 = 0.444×. 174 registers (one block of 8 warps per
// SM), 8 KB shared, no spills: each slice's global loads stall the whole SM.
#include <cuda_runtime.h>

namespace {

constexpr int tile_m = 128;
constexpr int tile_k = 128;
constexpr int slice = 8;
constexpr int per_thread = 8; // an 8×8 block of C per thread
constexpr int threads = (tile_m / per_thread) * (tile_k / per_thread);
constexpr int loads_per_thread = tile_m * slice / threads;
static_assert(tile_m * slice == tile_k * slice, "A and B slices have the same size");

__global__ void __launch_bounds__(threads)
    register_tile_2d_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float a_slice[tile_m][slice];
    __shared__ float b_slice[slice][tile_k];
    const int t = threadIdx.x;
    const int tiles_k = (K + tile_k - 1) / tile_k; // 1D grid: blockIdx.y would cap the tile count at 65535
    const int m0 = (blockIdx.x / tiles_k) * tile_m;
    const int k0 = (blockIdx.x % tiles_k) * tile_k;
    const int row0 = (t / (tile_k / per_thread)) * per_thread;
    const int col0 = (t % (tile_k / per_thread)) * per_thread;

    float sum[per_thread][per_thread] = {};
    float a_reg[per_thread], b_reg[per_thread];
    for (int base = 0; base < N; base += slice) {
#pragma unroll
        for (int l = 0; l < loads_per_thread; ++l) {
            const int e = t + l * threads; // consecutive threads → consecutive addresses
            const int a_row = e / slice, a_n = base + e % slice;
            const int b_n = base + e / tile_k, b_col = k0 + e % tile_k;
            a_slice[a_row][e % slice] =
                (m0 + a_row < M && a_n < N) ? A[static_cast<size_t>(m0 + a_row) * N + a_n] : 0.0f;
            b_slice[e / tile_k][e % tile_k] = (b_n < N && b_col < K) ? B[static_cast<size_t>(b_n) * K + b_col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < slice; ++p) {
#pragma unroll
            for (int i = 0; i < per_thread; ++i) a_reg[i] = a_slice[row0 + i][p];
#pragma unroll
            for (int j = 0; j < per_thread; ++j) b_reg[j] = b_slice[p][col0 + j];
#pragma unroll
            for (int i = 0; i < per_thread; ++i)
#pragma unroll
                for (int j = 0; j < per_thread; ++j) sum[i][j] += a_reg[i] * b_reg[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
        const int c_row = m0 + row0 + i;
#pragma unroll
        for (int j = 0; j < per_thread; ++j) {
            const int c_col = k0 + col0 + j;
            if (c_row < M && c_col < K) C[static_cast<size_t>(c_row) * K + c_col] = sum[i][j];
        }
    }
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const unsigned blocks = static_cast<unsigned>((K + tile_k - 1) / tile_k) * ((M + tile_m - 1) / tile_m);
    register_tile_2d_gemm<<<blocks, threads>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
