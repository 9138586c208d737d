// Rung 5 — vectorized: 16-byte global loads and stores; the A slice stored transposed.
//
// Technique: the block and thread shapes of rung 4 (128×128 tile, 256 threads, 8×8 of C
// per thread, 8-deep slices of the reduction dimension N), but every thread now fetches
// its share of each slice as one float4 of A and one float4 of B (LDG.E.128) instead of
// 4 + 4 scalar loads, and writes C back as float4s. The A slice is written to shared
// memory transposed, a_slice[n][m], so the 8 A values a thread needs at step n are
// contiguous: two LDS.128 like the B side, instead of reads 8 floats apart.
//
//   A (row-major, M×N)                    a_slice[8][128] (transposed)
//   row m: │ a0 a1 a2 a3 │ a4 a5 a6 a7 │   n=0: … a0 of rows m0 … m0+127 …
//          └ thread 2m ──┘└ thread 2m+1┘   n=1: … a1 …   one float4 → 4 scalar stores
//
// Alignment: a float4 needs a 16-byte address, which every row of A has only when N is
// a multiple of 4 (and of B when K is); otherwise — or for the float4 that straddles the
// edge of the matrix — the thread falls back to 4 predicated scalar loads. Both choices
// are uniform per launch except at the edges, so the fast path costs one predicate.
// Changed from rung 4 (04-register-tile-2d.cu): LDG.E.128 / STG.E.128 where aligned, the
// A slice transposed in shared memory.
// Measured on an NVIDIA H200 (bench, same run as cuBLAS; docs/perf-notes.md): 4096³
// 34.0 TFLOP/s = 0.705× cuBLAS SGEMM, 1.56× rung 4; 8192³ 34.5 = 0.679×; 8192×6144×4096
// 34.6 = 0.692×; 4097×4095×4093 (scalar fallback: N, K odd) 31.2 = 0.649×. 127 registers
// (two blocks per SM), 8 KB shared, no spills.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int tile_m = 128;
constexpr int tile_k = 128;
constexpr int slice = 8;
constexpr int per_thread = 8;
constexpr int threads = (tile_m / per_thread) * (tile_k / per_thread);
static_assert(tile_m * slice == 4 * threads && slice * tile_k == 4 * threads, "one float4 of A and of B per thread");

// Four consecutive elements of a row starting at column `col`; zeros past `cols`.
__device__ float4 load4(const float *row, int col, int cols, bool aligned) {
    if (aligned && col + 3 < cols) return *reinterpret_cast<const float4 *>(row + col);
    float4 v;
    v.x = col + 0 < cols ? row[col + 0] : 0.0f;
    v.y = col + 1 < cols ? row[col + 1] : 0.0f;
    v.z = col + 2 < cols ? row[col + 2] : 0.0f;
    v.w = col + 3 < cols ? row[col + 3] : 0.0f;
    return v;
}

__global__ void __launch_bounds__(threads)
    vectorized_gemm(const float *A, const float *B, float *C, int M, int N, int K, bool a_aligned, bool b_aligned) {
    __shared__ float a_slice[slice][tile_m];
    __shared__ float b_slice[slice][tile_k];
    const int t = threadIdx.x;
    const int tiles_k = (K + tile_k - 1) / tile_k;
    const int m0 = (blockIdx.x / tiles_k) * tile_m;
    const int k0 = (blockIdx.x % tiles_k) * tile_k;
    const int row0 = (t / (tile_k / per_thread)) * per_thread;
    const int col0 = (t % (tile_k / per_thread)) * per_thread;
    // This thread's float4 of each slice: A row a_m, columns a_n…+3; B row b_n, columns b_k…+3.
    const int a_m = t / (slice / 4), a_n = (t % (slice / 4)) * 4;
    const int b_n = t / (tile_k / 4), b_k = (t % (tile_k / 4)) * 4;
    const bool a_row_in = m0 + a_m < M;
    const float *a_row = A + static_cast<size_t>(a_row_in ? m0 + a_m : 0) * N;

    float sum[per_thread][per_thread] = {};
    for (int base = 0; base < N; base += slice) {
        const float4 a = a_row_in ? load4(a_row, base + a_n, N, a_aligned) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        const bool b_row_in = base + b_n < N;
        const float4 b = b_row_in ? load4(B + static_cast<size_t>(base + b_n) * K, k0 + b_k, K, b_aligned)
                                  : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        a_slice[a_n + 0][a_m] = a.x;
        a_slice[a_n + 1][a_m] = a.y;
        a_slice[a_n + 2][a_m] = a.z;
        a_slice[a_n + 3][a_m] = a.w;
        *reinterpret_cast<float4 *>(&b_slice[b_n][b_k]) = b;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < slice; ++p) {
            float a_reg[per_thread], b_reg[per_thread];
#pragma unroll
            for (int i = 0; i < per_thread; i += 4) {
                *reinterpret_cast<float4 *>(&a_reg[i]) = *reinterpret_cast<const float4 *>(&a_slice[p][row0 + i]);
                *reinterpret_cast<float4 *>(&b_reg[i]) = *reinterpret_cast<const float4 *>(&b_slice[p][col0 + i]);
            }
#pragma unroll
            for (int i = 0; i < per_thread; ++i)
#pragma unroll
                for (int j = 0; j < per_thread; ++j) sum[i][j] += a_reg[i] * b_reg[j];
        }
        __syncthreads();
    }
    const bool c_aligned = b_aligned && reinterpret_cast<uintptr_t>(C) % 16 == 0;
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
        const int c_row = m0 + row0 + i;
        if (c_row >= M) break;
        float *c = C + static_cast<size_t>(c_row) * K;
#pragma unroll
        for (int j = 0; j < per_thread; j += 4) {
            const int c_col = k0 + col0 + j;
            if (c_aligned && c_col + 3 < K) {
                *reinterpret_cast<float4 *>(c + c_col) =
                    make_float4(sum[i][j], sum[i][j + 1], sum[i][j + 2], sum[i][j + 3]);
            } else {
#pragma unroll
                for (int jj = 0; jj < 4; ++jj)
                    if (c_col + jj < K) c[c_col + jj] = sum[i][j + jj];
            }
        }
    }
}

bool rows_aligned(const float *matrix, int row_length) {
    return row_length % 4 == 0 && reinterpret_cast<uintptr_t>(matrix) % 16 == 0;
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const unsigned blocks = static_cast<unsigned>((K + tile_k - 1) / tile_k) * ((M + tile_m - 1) / tile_m);
    vectorized_gemm<<<blocks, threads>>>(A, B, C, M, N, K, rows_aligned(A, N), rows_aligned(B, K));
    cudaDeviceSynchronize();
}
