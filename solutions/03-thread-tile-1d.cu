// Rung 3 — thread_tile_1d: each thread computes a column of 8 outputs (1D blocktiling).
//
// Technique: a 64×64 tile of C per block of 512 threads, the reduction dimension N cut
// into 8-wide slices. Each thread owns 8 consecutive rows of one column of the tile and
// keeps their sums in registers. Per step of the reduction it reads one value of the B
// slice into a register and reuses it for 8 multiply-adds against 8 values of the A
// slice, which are the same for the whole warp (a broadcast; ptxas reads them as float4s
// along the slice). The SASS has 24 shared loads per 64 FMAs, where rung 2 had 20 per 16:
// reuse in registers is the lever rung 2 lacked.
//
//            B slice 8×64 (one value per thread column, reused 8×)
//            ┌────────────────────────────┐
//            │ c0 c1 c2 ... c63           │
//            └────────────────────────────┘
//   A slice  ┌──┐ ┌────────────────────────┐
//   64×8     │  │ │ rows 0–7:  threads 0–63│  thread t: column t % 64,
//            │  │ │ rows 8–15: threads 64–127 rows 8·(t / 64) … +7
//            │  │ │ …                      │
//            └──┘ └────────────────────────┘
// Loads: each thread brings one element of the A slice and one of the B slice per step
// (512 of each), zero-filled outside the matrices so that partial tiles add nothing.
// Every thread reaches both barriers; only the stores are guarded.
// Changed from rung 2 (02-tiled.cu): 8 outputs per thread instead of 1; 64×64 tiles, 8-deep
// slices, 512 threads.
// Measured on an NVIDIA H200 (bench, same run as cuBLAS; docs/perf-notes.md): 4096³
// 16.3 TFLOP/s = 0.337× cuBLAS SGEMM, 2.0× rung 2; 8192³ 16.3 = 0.322×; 8192×6144×4096
// 16.5 = 0.330×; 4097×4095×4093 16.1 = 0.335×. 50 registers, 4 KB shared, no spills.
#include <cuda_runtime.h>

namespace {

constexpr int tile_m = 64; // rows of C per block
constexpr int tile_k = 64; // columns of C per block
constexpr int slice = 8;   // depth of one step along the reduction dimension N
constexpr int per_thread = 8;
constexpr int threads = tile_m * tile_k / per_thread;
static_assert(threads == tile_m * slice && threads == slice * tile_k, "one A and one B element per thread");

__global__ void __launch_bounds__(threads)
    thread_tile_1d_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ float a_slice[tile_m][slice];
    __shared__ float b_slice[slice][tile_k];
    const int t = threadIdx.x;
    // A 1D grid: blockIdx.y would cap M at 65535 tiles.
    const int tiles_k = (K + tile_k - 1) / tile_k;
    const int m0 = (blockIdx.x / tiles_k) * tile_m;
    const int k0 = (blockIdx.x % tiles_k) * tile_k;
    const int col = t % tile_k;
    const int row0 = (t / tile_k) * per_thread;
    // The element of each slice this thread loads: consecutive t → consecutive addresses.
    const int a_row = m0 + t / slice, a_col = t % slice;
    const int b_row = t / tile_k, b_col = k0 + t % tile_k;

    float sum[per_thread] = {};
    for (int base = 0; base < N; base += slice) {
        const int a_n = base + a_col, b_n = base + b_row;
        a_slice[t / slice][a_col] = (a_row < M && a_n < N) ? A[static_cast<size_t>(a_row) * N + a_n] : 0.0f;
        b_slice[b_row][t % tile_k] = (b_n < N && b_col < K) ? B[static_cast<size_t>(b_n) * K + b_col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < slice; ++p) {
            const float b = b_slice[p][col];
#pragma unroll
            for (int i = 0; i < per_thread; ++i) sum[i] += a_slice[row0 + i][p] * b;
        }
        __syncthreads();
    }
    const int c_col = k0 + col;
    if (c_col >= K) return; // after the last barrier: no thread is left waiting
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
        const int c_row = m0 + row0 + i;
        if (c_row < M) C[static_cast<size_t>(c_row) * K + c_col] = sum[i];
    }
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const unsigned blocks = static_cast<unsigned>((K + tile_k - 1) / tile_k) * ((M + tile_m - 1) / tile_m);
    thread_tile_1d_gemm<<<blocks, threads>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
