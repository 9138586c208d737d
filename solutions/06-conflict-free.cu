// Rung 6 — conflict_free: shared-memory accesses without bank conflicts.
//
// Technique: rung 5's kernel with two layout changes, both aimed at the 32 banks of
// shared memory (4 bytes wide; a warp's access takes one pass per distinct word asked of
// the busiest bank).
//  1. Each thread's 8×8 block of C is split into four 4×4 pieces 64 rows and 64 columns
//     apart. A warp's LDS.128 of the B slice then reads 16 consecutive float4s (256
//     bytes, two passes, the minimum) instead of 16 float4s 32 bytes apart, of which
//     every fourth falls in the same banks (four passes). The A reads stay broadcasts.
//  2. The transposed A slice gets 4 floats of padding per row. Without it the two
//     threads that load row m's two float4s store a_slice[n][m] and a_slice[n+4][m], 512
//     bytes apart: the same bank, two passes for every store. With 132 floats per row
//     the second lands 16 banks over.
//
//   thread t's pieces of the 128×128 tile (r = t / 16, c = t % 16):
//          cols 4c…4c+3      cols 64+4c…+3
//        ┌───────────────┬───────────────┐
//        │ rows 4r…4r+3  │ rows 4r…4r+3  │   a warp (r = 2w, 2w+1; c = 0…15) reads
//        ├───────────────┼───────────────┤   b_slice[n][0…63] and [n][64…127]:
//        │ rows 64+4r…+3 │ rows 64+4r…+3 │   contiguous, conflict-free
//        └───────────────┴───────────────┘
// The stores to C follow the same split: a warp writes 256 contiguous bytes per row.
// Alignment and edges as in rung 5: float4 where rows are 16-byte aligned, predicated
// scalar loads and stores otherwise and at the edges; zero-filled slices.
// Changed from rung 5 (05-vectorized.cu): the split thread tile and the padded A slice.
// Measured on an NVIDIA H200 (bench, same run as cuBLAS; docs/perf-notes.md): 4096³
// 37.5 TFLOP/s = 0.778× cuBLAS SGEMM, 1.10× rung 5; 8192³ 37.8 = 0.745×; 8192×6144×4096
// 38.1 = 0.762×; 4097×4095×4093 34.6 = 0.721×. 127 registers, 8.3 KB shared, no spills.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int tile_m = 128;
constexpr int tile_k = 128;
constexpr int slice = 8;
constexpr int piece = 4;            // a thread's block of C is 2×2 pieces of 4×4
constexpr int half_m = tile_m / 2;  // distance between a thread's row pieces
constexpr int half_k = tile_k / 2;  // distance between its column pieces
constexpr int a_pitch = tile_m + 4; // padding: see point 2 above
constexpr int threads = (half_m / piece) * (half_k / piece);
static_assert(tile_m * slice == 4 * threads && slice * tile_k == 4 * threads, "one float4 of A and of B per thread");

__device__ float4 load4(const float *row, int col, int cols, bool aligned) {
    if (aligned && col + 3 < cols) return *reinterpret_cast<const float4 *>(row + col);
    float4 v;
    v.x = col + 0 < cols ? row[col + 0] : 0.0f;
    v.y = col + 1 < cols ? row[col + 1] : 0.0f;
    v.z = col + 2 < cols ? row[col + 2] : 0.0f;
    v.w = col + 3 < cols ? row[col + 3] : 0.0f;
    return v;
}

__device__ void store4(float *row, int col, int cols, bool aligned, float4 v) {
    if (aligned && col + 3 < cols) {
        *reinterpret_cast<float4 *>(row + col) = v;
        return;
    }
    if (col + 0 < cols) row[col + 0] = v.x;
    if (col + 1 < cols) row[col + 1] = v.y;
    if (col + 2 < cols) row[col + 2] = v.z;
    if (col + 3 < cols) row[col + 3] = v.w;
}

__global__ void __launch_bounds__(threads)
    conflict_free_gemm(const float *A, const float *B, float *C, int M, int N, int K, bool a_aligned, bool b_aligned) {
    __shared__ __align__(16) float a_slice[slice][a_pitch];
    __shared__ __align__(16) float b_slice[slice][tile_k];
    const int t = threadIdx.x;
    const int tiles_k = (K + tile_k - 1) / tile_k;
    const int m0 = (blockIdx.x / tiles_k) * tile_m;
    const int k0 = (blockIdx.x % tiles_k) * tile_k;
    const int row0 = (t / (half_k / piece)) * piece;
    const int col0 = (t % (half_k / piece)) * piece;
    const int a_m = t / (slice / 4), a_n = (t % (slice / 4)) * 4;
    const int b_n = t / (tile_k / 4), b_k = (t % (tile_k / 4)) * 4;
    const bool a_row_in = m0 + a_m < M;
    const float *a_row = A + static_cast<size_t>(a_row_in ? m0 + a_m : 0) * N;

    float sum[2 * piece][2 * piece] = {}; // [i][j]: row row0 + (i / 4)·64 + i % 4, column likewise
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
            float a_reg[2 * piece], b_reg[2 * piece];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                *reinterpret_cast<float4 *>(&a_reg[h * piece]) =
                    *reinterpret_cast<const float4 *>(&a_slice[p][row0 + h * half_m]);
                *reinterpret_cast<float4 *>(&b_reg[h * piece]) =
                    *reinterpret_cast<const float4 *>(&b_slice[p][col0 + h * half_k]);
            }
#pragma unroll
            for (int i = 0; i < 2 * piece; ++i)
#pragma unroll
                for (int j = 0; j < 2 * piece; ++j) sum[i][j] += a_reg[i] * b_reg[j];
        }
        __syncthreads();
    }
    const bool c_aligned = b_aligned && reinterpret_cast<uintptr_t>(C) % 16 == 0;
#pragma unroll
    for (int i = 0; i < 2 * piece; ++i) {
        const int c_row = m0 + row0 + (i / piece) * half_m + i % piece;
        if (c_row >= M) continue;
        float *c = C + static_cast<size_t>(c_row) * K;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const float *s = &sum[i][h * piece];
            store4(c, k0 + col0 + h * half_k, K, c_aligned, make_float4(s[0], s[1], s[2], s[3]));
        }
    }
}

bool rows_aligned(const float *matrix, int row_length) {
    return row_length % 4 == 0 && reinterpret_cast<uintptr_t>(matrix) % 16 == 0;
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const unsigned blocks = static_cast<unsigned>((K + tile_k - 1) / tile_k) * ((M + tile_m - 1) / tile_m);
    conflict_free_gemm<<<blocks, threads>>>(A, B, C, M, N, K, rows_aligned(A, N), rows_aligned(B, K));
    cudaDeviceSynchronize();
}
