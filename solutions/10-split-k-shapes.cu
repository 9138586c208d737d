// Rung 10 — split_k_shapes: rung 9's kernel with split-K and a narrow tile, chosen per shape by a wave model.
//
// Technique: rung 9's warp-tiled cp.async FFMA kernel, unchanged in its inner loop, made to
// fit the shapes it did not fit:
//  1. Split-K (our reduction dimension is N). A grid of tiles × S splits; split s sums the
//     N-range [s·chunk, (s+1)·chunk) in FP32 (chunk a multiple of the slice depth). Split 0
//     writes C, splits 1…S−1 write their partial sums to a workspace (cudaMalloc'd once,
//     grown when a larger one is needed), and a second kernel adds them in a fixed order,
//     C = ((C₀ + C₁) + C₂) + … — deterministic, no atomics, and the error bound of a sum
//     of N/S + S terms, below γ_N. 512×32768×512 (8 tiles of 128×256 for 132 SMs) runs as
//     8 × 16 = 128 blocks of 2048-long reductions.
//  2. A narrow tiling for narrow C: 128×96 blocks of 4 warps, each warp 32×96 (8×12 sums a
//     lane: 5 LDS.128 per 96 FFMA), 2 blocks per SM. At K = 96 it wastes no column, where
//     64×64 tiles wasted a quarter (K = 96 → 2 tiles of 64) and 128×256 five eighths. Its B
//     copies are mapped element by element, since 96/4 = 24 float4s a row do not divide
//     the 128 threads.
//  3. One chooser for tiling and plan: each candidate's time is estimated as whole waves
//     (132 SMs × resident blocks) × (chunk + 32) of reduction per block over the tiling's
//     measured speed, plus the second pass's bytes ((S + 1)·M·K·4 at 2.5 TB/s, 4 µs launch);
//     S > 1 must win by 3%. 3001×2999×3003: 288 tiles of 128×256 are 2.18 waves, rounded up
//     to 3; the narrow tiling's 768 tiles are 2.91 waves of 264, the model's pick (and the
//     fastest measured; split-K S = 4–5 on 128×256 measured 8% slower).
//  4. A stream-K mode (a grid of one wave; block b takes slices [b·per, (b+1)·per) of the
//     tiles × slices of the product, pieces of shared tiles summed in block order by a second
//     kernel). Measured: no gain where it was meant to help (3001×2999×3003: 1.363 ms against
//     1.327 for the narrow tiling; 4096³ +0.3%, 2048³ −8%), so the model charges it 15% and no
//     ranked shape picks it; it stays as the starting point for a faster generic kernel.
// Changed from rung 9 (09-h200-tuned.cu): points 1–4. The plain mode of the 128×256 and 64×64
// tilings is rung 9's kernel verbatim (a generic kernel with the split parameters ran 3–5%
// slower at the same tiling: 240 registers against 246, another schedule), so 4096³, 8192³,
// 8192×6144×4096, 4097×4095×4093, 2048³ and 16384×64×16384 run exactly rung 9's code.
// Measured on an NVIDIA H200 (scripts/ladder_bench, one process, cuBLAS SGEMM pedantic and
// rung 9 interleaved call by call, L2 flushed, median of 21; ratio = cuBLAS time / ours):
// 4096³ 47.5 TFLOP/s 0.938×; 8192×6144×4096 48.8 0.961×; 4097×4095×4093 46.2 0.938×;
// 8192³ 48.5 0.950×; 2048³ 46.3 0.933×; 16384×64×16384 36.6 1.080×; 32768×1024×96 41.3
// 1.229× (rung 9 0.790×); 512×32768×512 45.3 0.930× (rung 9 0.145×); 3001×2999×3003 with
// the narrow tiling 40.7 0.950× (the second run's; the final run measured the stream-K pick
// this file no longer makes, 0.926×). Rank score (geometric mean): 0.983× in the final run,
// ≈ 0.986× with the narrow pick at 3001 (rung 9: 0.760× in the same run). All 88 checks
// (44 shapes × 2 fresh input sets, FP64 reference, elementwise and normwise bound) pass;
// worst elementwise ratio 0.50 (N = 1), worst normwise 0.12. docs/perf-notes.md, "Rung 10".
#include <algorithm>
#include <cstdint>
#include <cuda_runtime.h>
#include <tuple>
#include <type_traits>
#ifdef TUNE_PLAN_ENV
#include <cstdio>
#include <cstdlib>
#endif

namespace {

template <int rows_, int cols_, int depth_, int warp_rows_, int warp_cols_, int lane_rows_, int stages_,
          int min_blocks_, int speed_percent_ = 100>
struct Tiling {
    static constexpr int rows = rows_, cols = cols_, depth = depth_; // block tile of C; slice of N
    static constexpr int warp_rows = warp_rows_, warp_cols = warp_cols_;
    static constexpr int lane_rows = lane_rows_, lane_cols = 32 / lane_rows_;
    static constexpr int stages = stages_, min_blocks = min_blocks_;
    static constexpr int speed_percent = speed_percent_; // measured throughput relative to the best tiling
    static constexpr int warps_k = cols / warp_cols;
    static constexpr int threads = (rows / warp_rows) * warps_k * 32;
    static constexpr int frag_m = warp_rows / lane_rows, frag_k = warp_cols / lane_cols; // C per lane
    static constexpr int a_pitch = rows + 4; // keeps the transposed 4-byte copies conflict-free
    static constexpr int a_floats = depth * a_pitch, b_floats = depth * cols;
    static constexpr int smem_bytes = stages * (a_floats + b_floats) * 4;
    // A copies: 8 lanes along a row's 8 consecutive floats (one 32-byte sector).
    static constexpr int a_rows_per_pass = threads / 8, a_row_passes = rows / a_rows_per_pass;
    static constexpr int a_col_passes = depth / 8;
    // B copies, 16-byte: a row of the slice is cols/4 float4s. When they divide the threads,
    // each thread keeps one column chunk (b_fixed); otherwise each pass maps its own element.
    static constexpr bool b_fixed = threads % (cols / 4) == 0 && (threads % cols == 0 || cols % threads == 0);
    static constexpr int b_rows_per_pass = b_fixed ? threads / (cols / 4) : 1;
    static constexpr int b_passes = b_fixed ? depth / b_rows_per_pass : depth * cols / 4 / threads;
    // B copies, 4-byte (rows of B not 16-byte aligned).
    static constexpr int b_scalar_passes = depth * cols / threads;

    static_assert(rows % warp_rows == 0 && cols % warp_cols == 0, "whole warps per block");
    static_assert(frag_m % 4 == 0 && frag_k % 4 == 0, "lanes own whole 4×4 pieces");
    static_assert(depth % 8 == 0 && rows % a_rows_per_pass == 0, "A copies cover the slice");
    static_assert(!b_fixed || (b_rows_per_pass >= 1 && depth % b_rows_per_pass == 0), "B copies cover the slice");
    static_assert(b_fixed || (depth * cols / 4) % threads == 0, "B element copies cover the slice");
    static_assert(depth * cols % threads == 0, "B scalar copies");
};

__device__ void copy4(float *dst, const float *src, bool in) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d), "l"(src), "r"(in ? 4 : 0) : "memory");
}

__device__ void copy16(float *dst, const float *src, bool in) {
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(in ? 16 : 0) : "memory");
}

__device__ void commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }

template <int pending> __device__ void wait_until_pending() {
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
}

__device__ void store4(float *row, int col, int cols, bool aligned, const float *v) {
    if (aligned && col + 3 < cols) {
        *reinterpret_cast<float4 *>(row + col) = make_float4(v[0], v[1], v[2], v[3]);
        return;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
        if (col + j < cols) row[col + j] = v[j];
}

// Tile coordinates of tile `index` (a block's, in plain and split_k): groups of `group_rows` tile rows, walked column
// by column.
__device__ void grouped_tile(int index, int tiles_m, int tiles_k, int group_rows, int &tile_m, int &tile_k) {
    const int per_group = group_rows * tiles_k;
    const int group = index / per_group, first = group * group_rows;
    const int height = min(tiles_m - first, group_rows);
    const int in_group = index % per_group;
    tile_m = first + in_group % height;
    tile_k = in_group / height;
}

// Rung 9's kernel, verbatim (the plain mode of the tilings whose B copies it can do): kept
// apart from split_gemm so that ptxas schedules it exactly as in rung 9.
template <class T, bool b_vec> __global__ void __launch_bounds__(T::threads, T::min_blocks)
    rung9_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K,
               int group_rows) {
    extern __shared__ __align__(16) float smem[];
    const int t = threadIdx.x;
    int tile_m, tile_k;
    grouped_tile(blockIdx.x, (M + T::rows - 1) / T::rows, (K + T::cols - 1) / T::cols, group_rows, tile_m, tile_k);
    const int m0 = tile_m * T::rows, k0 = tile_k * T::cols;
    const int slices = (N + T::depth - 1) / T::depth;

    // A copies: this thread's first row (clamped into A) and column. Rows past M and columns
    // past N are zero-filled with src-size 0, which reads nothing: their addresses go unclamped.
    const int a_n = t % 8, a_m = t / 8;
    const float *a_src = A + static_cast<size_t>(min(m0 + a_m, M - 1)) * N + a_n;
    const size_t a_pass_stride = static_cast<size_t>(T::a_rows_per_pass) * N;
    unsigned a_rows_in = 0;
#pragma unroll
    for (int pass = 0; pass < T::a_row_passes; ++pass)
        if (m0 + a_m + pass * T::a_rows_per_pass < M) a_rows_in |= 1u << pass;
    // B copies: the 16-byte chunk (b_n, b_k…b_k+3), or the scalar column b_k, of each slice.
    const int b_n = b_vec ? t / (T::cols / 4) : t / T::cols;
    const int b_k = b_vec ? (t % (T::cols / 4)) * 4 : t % T::cols;
    const bool b_col_in = k0 + b_k < K;
    const float *b_src = B + static_cast<size_t>(b_n) * K + k0 + b_k;

    auto load_slice = [&](int stage, int base) {
        float *a_dst = smem + stage * T::a_floats + a_n * T::a_pitch + a_m;
#pragma unroll
        for (int cp = 0; cp < T::a_col_passes; ++cp) {
            const bool col_in = base + a_n + cp * 8 < N;
#pragma unroll
            for (int rp = 0; rp < T::a_row_passes; ++rp)
                copy4(a_dst + cp * 8 * T::a_pitch + rp * T::a_rows_per_pass, a_src + rp * a_pass_stride + base + cp * 8,
                      col_in && (a_rows_in >> rp & 1));
        }
        float *b_dst = smem + T::stages * T::a_floats + stage * T::b_floats + b_n * T::cols + b_k;
        const float *b_row = b_src + static_cast<size_t>(base) * K;
        if (b_vec) {
#pragma unroll
            for (int pass = 0; pass < T::b_passes; ++pass)
                copy16(b_dst + pass * T::b_rows_per_pass * T::cols,
                       b_row + static_cast<size_t>(pass) * T::b_rows_per_pass * K,
                       b_col_in && base + b_n + pass * T::b_rows_per_pass < N);
        } else {
#pragma unroll
            for (int pass = 0; pass < T::b_scalar_passes; ++pass) {
                const int e = pass * T::threads; // element offset of this pass in the slice
                const int row = e / T::cols, col = e % T::cols;
                copy4(b_dst + row * T::cols + col, b_row + static_cast<size_t>(row) * K + col,
                      k0 + b_k + col < K && base + b_n + row < N);
            }
        }
    };

    const int warp = t / 32, lane = t % 32;
    const int frag_row0 = (warp / T::warps_k) * T::warp_rows + (lane / T::lane_cols) * 4;
    const int frag_col0 = (warp % T::warps_k) * T::warp_cols + (lane % T::lane_cols) * 4;
    float a_frag[2][T::frag_m], b_frag[2][T::frag_k];
    auto load_fragments = [&](int buffer, int stage, int p) {
        const float *a = smem + stage * T::a_floats + p * T::a_pitch + frag_row0;
        const float *b = smem + T::stages * T::a_floats + stage * T::b_floats + p * T::cols + frag_col0;
#pragma unroll
        for (int i = 0; i < T::frag_m; i += 4)
            *reinterpret_cast<float4 *>(&a_frag[buffer][i]) = *reinterpret_cast<const float4 *>(a + i * T::lane_rows);
#pragma unroll
        for (int j = 0; j < T::frag_k; j += 4)
            *reinterpret_cast<float4 *>(&b_frag[buffer][j]) = *reinterpret_cast<const float4 *>(b + j * T::lane_cols);
    };

#pragma unroll
    for (int s = 0; s < T::stages - 1; ++s) {
        if (s < slices) load_slice(s, s * T::depth);
        commit(); // empty groups too: slice s is always group s
    }
    wait_until_pending<T::stages - 2>();
    __syncthreads();
    load_fragments(0, 0, 0);

    float acc[T::frag_m][T::frag_k] = {};
    int read_stage = 0, write_stage = T::stages - 1;
    for (int s = 0; s < slices; ++s) {
#pragma unroll
        for (int p = 0; p < T::depth; ++p) {
            if (p == T::depth - 1) { // slice s+1 must have landed, and everyone be done with slice s−1's buffer
                wait_until_pending<T::stages - 2>();
                __syncthreads();
                read_stage = read_stage + 1 == T::stages ? 0 : read_stage + 1;
            }
            load_fragments((p + 1) % 2, read_stage, (p + 1) % T::depth);
            if (p == 0) { // the slice stages−1 ahead, into the buffer everyone left at the barrier
                const int ahead = s + T::stages - 1;
                if (ahead < slices) load_slice(write_stage, ahead * T::depth);
                commit();
                write_stage = write_stage + 1 == T::stages ? 0 : write_stage + 1;
            }
            // Serpentine order: each FMA shares an operand with the one before it, which the
            // operand reuse cache then supplies (measured +1% over row-by-row order, and +8%
            // with 16-deep slices, where ptxas otherwise scheduled the loop worse).
#pragma unroll
            for (int i = 0; i < T::frag_m; ++i)
#pragma unroll
                for (int jj = 0; jj < T::frag_k; ++jj) {
                    const int j = i % 2 ? T::frag_k - 1 - jj : jj;
                    acc[i][j] += a_frag[p % 2][i] * b_frag[p % 2][j];
                }
        }
    }

    const bool c_aligned = b_vec && reinterpret_cast<uintptr_t>(C) % 16 == 0;
#pragma unroll
    for (int i = 0; i < T::frag_m; ++i) {
        const int row = m0 + frag_row0 + (i / 4) * T::lane_rows * 4 + i % 4;
        if (row >= M) continue;
        float *c = C + static_cast<size_t>(row) * K;
#pragma unroll
        for (int j = 0; j < T::frag_k; j += 4) store4(c, k0 + frag_col0 + j * T::lane_cols, K, c_aligned, &acc[i][j]);
    }
}

enum Mode { plain = 0, split_k = 1, stream_k = 2 };

// The product of one tile of C over the N-range [n0, n1): rung 9's pipeline. mode plain is
// rung 9's kernel exactly (n0 = 0, n1 = N, C at global coordinates); the other modes write
// out[(row − m0)·ld + (col − k0)] for the rows and columns inside C.
template <class T, bool b_vec, int mode>
__device__ __forceinline__ void tile_product(float *smem, const float *__restrict__ A, const float *__restrict__ B,
                                             float *__restrict__ out, int ld, int M, int N, int K, int m0, int k0,
                                             int n0, int n1) {
    const int t = threadIdx.x;
    if (mode == plain) n0 = 0, n1 = N;
    const int slices = (n1 - n0 + T::depth - 1) / T::depth;

    // A copies: this thread's first row (clamped into A) and column. Rows past M and columns
    // past n1 are zero-filled with src-size 0, which reads nothing: their addresses go unclamped.
    const int a_n = t % 8, a_m = t / 8;
    const float *a_src = A + static_cast<size_t>(min(m0 + a_m, M - 1)) * N + a_n;
    const size_t a_pass_stride = static_cast<size_t>(T::a_rows_per_pass) * N;
    unsigned a_rows_in = 0;
#pragma unroll
    for (int pass = 0; pass < T::a_row_passes; ++pass)
        if (m0 + a_m + pass * T::a_rows_per_pass < M) a_rows_in |= 1u << pass;
    // B copies (b_fixed): the 16-byte chunk (b_n, b_k…b_k+3), or the scalar column b_k, of each slice.
    const int b_n = b_vec ? t / (T::cols / 4) : t / T::cols;
    const int b_k = b_vec ? (t % (T::cols / 4)) * 4 : t % T::cols;
    const bool b_col_in = k0 + b_k < K;
    const float *b_src = B + static_cast<size_t>(b_n) * K + k0 + b_k;

    auto load_slice = [&](int stage, int base) {
        float *a_dst = smem + stage * T::a_floats + a_n * T::a_pitch + a_m;
#pragma unroll
        for (int cp = 0; cp < T::a_col_passes; ++cp) {
            const bool col_in = base + a_n + cp * 8 < n1;
#pragma unroll
            for (int rp = 0; rp < T::a_row_passes; ++rp)
                copy4(a_dst + cp * 8 * T::a_pitch + rp * T::a_rows_per_pass, a_src + rp * a_pass_stride + base + cp * 8,
                      col_in && (a_rows_in >> rp & 1));
        }
        float *b_stage = smem + T::stages * T::a_floats + stage * T::b_floats;
        if constexpr (T::b_fixed) {
            float *b_dst = b_stage + b_n * T::cols + b_k;
            const float *b_row = b_src + static_cast<size_t>(base) * K;
            if (b_vec) {
#pragma unroll
                for (int pass = 0; pass < T::b_passes; ++pass)
                    copy16(b_dst + pass * T::b_rows_per_pass * T::cols,
                           b_row + static_cast<size_t>(pass) * T::b_rows_per_pass * K,
                           b_col_in && base + b_n + pass * T::b_rows_per_pass < n1);
            } else {
#pragma unroll
                for (int pass = 0; pass < T::b_scalar_passes; ++pass) {
                    const int e = pass * T::threads; // element offset of this pass in the slice
                    const int row = e / T::cols, col = e % T::cols;
                    copy4(b_dst + row * T::cols + col, b_row + static_cast<size_t>(row) * K + col,
                          k0 + b_k + col < K && base + b_n + row < n1);
                }
            }
        } else { // element e of the slice (a float4 or a float), e = pass·threads + t
            const float *b_slice = B + static_cast<size_t>(base) * K + k0;
            if (b_vec) {
#pragma unroll
                for (int pass = 0; pass < T::b_passes; ++pass) {
                    const int e = pass * T::threads + t;
                    const int row = e / (T::cols / 4), col = e % (T::cols / 4) * 4;
                    copy16(b_stage + row * T::cols + col, b_slice + static_cast<size_t>(row) * K + col,
                           k0 + col < K && base + row < n1);
                }
            } else {
#pragma unroll
                for (int pass = 0; pass < T::b_scalar_passes; ++pass) {
                    const int e = pass * T::threads + t;
                    const int row = e / T::cols, col = e % T::cols;
                    copy4(b_stage + row * T::cols + col, b_slice + static_cast<size_t>(row) * K + col,
                          k0 + col < K && base + row < n1);
                }
            }
        }
    };

    const int warp = t / 32, lane = t % 32;
    const int frag_row0 = (warp / T::warps_k) * T::warp_rows + (lane / T::lane_cols) * 4;
    const int frag_col0 = (warp % T::warps_k) * T::warp_cols + (lane % T::lane_cols) * 4;
    float a_frag[2][T::frag_m], b_frag[2][T::frag_k];
    auto load_fragments = [&](int buffer, int stage, int p) {
        const float *a = smem + stage * T::a_floats + p * T::a_pitch + frag_row0;
        const float *b = smem + T::stages * T::a_floats + stage * T::b_floats + p * T::cols + frag_col0;
#pragma unroll
        for (int i = 0; i < T::frag_m; i += 4)
            *reinterpret_cast<float4 *>(&a_frag[buffer][i]) = *reinterpret_cast<const float4 *>(a + i * T::lane_rows);
#pragma unroll
        for (int j = 0; j < T::frag_k; j += 4)
            *reinterpret_cast<float4 *>(&b_frag[buffer][j]) = *reinterpret_cast<const float4 *>(b + j * T::lane_cols);
    };

#pragma unroll
    for (int s = 0; s < T::stages - 1; ++s) {
        if (s < slices) load_slice(s, n0 + s * T::depth);
        commit(); // empty groups too: slice s is always group s
    }
    wait_until_pending<T::stages - 2>();
    __syncthreads();
    load_fragments(0, 0, 0);

    float acc[T::frag_m][T::frag_k] = {};
    int read_stage = 0, write_stage = T::stages - 1;
    for (int s = 0; s < slices; ++s) {
#pragma unroll
        for (int p = 0; p < T::depth; ++p) {
            if (p == T::depth - 1) { // slice s+1 must have landed, and everyone be done with slice s−1's buffer
                wait_until_pending<T::stages - 2>();
                __syncthreads();
                read_stage = read_stage + 1 == T::stages ? 0 : read_stage + 1;
            }
            load_fragments((p + 1) % 2, read_stage, (p + 1) % T::depth);
            if (p == 0) { // the slice stages−1 ahead, into the buffer everyone left at the barrier
                const int ahead = s + T::stages - 1;
                if (ahead < slices) load_slice(write_stage, n0 + ahead * T::depth);
                commit();
                write_stage = write_stage + 1 == T::stages ? 0 : write_stage + 1;
            }
            // Serpentine order (rung 9): each FMA shares an operand with the one before it.
#pragma unroll
            for (int i = 0; i < T::frag_m; ++i)
#pragma unroll
                for (int jj = 0; jj < T::frag_k; ++jj) {
                    const int j = i % 2 ? T::frag_k - 1 - jj : jj;
                    acc[i][j] += a_frag[p % 2][i] * b_frag[p % 2][j];
                }
        }
    }

    if constexpr (mode == plain) { // rung 9's epilogue
        const bool c_aligned = b_vec && reinterpret_cast<uintptr_t>(out) % 16 == 0;
#pragma unroll
        for (int i = 0; i < T::frag_m; ++i) {
            const int row = m0 + frag_row0 + (i / 4) * T::lane_rows * 4 + i % 4;
            if (row >= M) continue;
            float *c = out + static_cast<size_t>(row) * K;
#pragma unroll
            for (int j = 0; j < T::frag_k; j += 4)
                store4(c, k0 + frag_col0 + j * T::lane_cols, K, c_aligned, &acc[i][j]);
        }
    } else {
        const bool c_aligned = ld % 4 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
        const int cols_in = K - k0;
#pragma unroll
        for (int i = 0; i < T::frag_m; ++i) {
            const int row = frag_row0 + (i / 4) * T::lane_rows * 4 + i % 4;
            if (m0 + row >= M) continue;
            float *c = out + static_cast<size_t>(row) * ld;
#pragma unroll
            for (int j = 0; j < T::frag_k; j += 4)
                store4(c, frag_col0 + j * T::lane_cols, cols_in, c_aligned, &acc[i][j]);
        }
    }
}

// plain: one tile a block, the whole of N (rung 9). split_k: blockIdx.y is the split, over
// [split·chunk, (split+1)·chunk); split 0 writes C, split s ≥ 1 the workspace's part s − 1
// (M·K floats each). stream_k: the tiles × slices of the product, tile by tile, cut into
// gridDim.x ranges of `per` slices; block b takes range b, which may end one tile and begin
// others. A tile one block covers whole is written to C; a piece of a tile (only the first
// and the last of a block's can be one) goes to the workspace, slot 2b (first) or 2b + 1
// (last), rows × cols floats, for add_pieces to sum in block order.
template <class T, bool b_vec, int mode> __global__ void __launch_bounds__(T::threads, T::min_blocks)
    split_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, float *__restrict__ ws,
               int M, int N, int K, int chunk, int group_rows, int per) {
    extern __shared__ __align__(16) float smem[];
    const int tiles_m = (M + T::rows - 1) / T::rows, tiles_k = (K + T::cols - 1) / T::cols;
    int tile_m, tile_k;
    if constexpr (mode == plain) {
        grouped_tile(blockIdx.x, tiles_m, tiles_k, group_rows, tile_m, tile_k);
        tile_product<T, b_vec, plain>(smem, A, B, C, K, M, N, K, tile_m * T::rows, tile_k * T::cols, 0, N);
    } else if constexpr (mode == split_k) {
        grouped_tile(blockIdx.x, tiles_m, tiles_k, group_rows, tile_m, tile_k);
        const int m0 = tile_m * T::rows, k0 = tile_k * T::cols;
        const int split = blockIdx.y;
        float *out = split == 0 ? C : ws + static_cast<size_t>(split - 1) * M * K;
        tile_product<T, b_vec, split_k>(smem, A, B, out + static_cast<size_t>(m0) * K + k0, K, M, N, K, m0, k0,
                                        split * chunk, min(N, split * chunk + chunk));
    } else {
        const int spt = (N + T::depth - 1) / T::depth; // slices per tile
        const long long total = static_cast<long long>(tiles_m) * tiles_k * spt;
        const long long begin = static_cast<long long>(blockIdx.x) * per, end = min(total, begin + per);
        const int first_tile = static_cast<int>(begin / spt);
        for (long long u = begin; u < end;) {
            const int tile = static_cast<int>(u / spt), s0 = static_cast<int>(u % spt);
            const int s1 = static_cast<int>(min(static_cast<long long>(spt), s0 + (end - u)));
            grouped_tile(tile, tiles_m, tiles_k, group_rows, tile_m, tile_k);
            const int m0 = tile_m * T::rows, k0 = tile_k * T::cols;
            float *out;
            int ld;
            if (s0 == 0 && s1 == spt) {
                out = C + static_cast<size_t>(m0) * K + k0, ld = K;
            } else {
                const size_t slot = 2 * static_cast<size_t>(blockIdx.x) + (tile != first_tile);
                out = ws + slot * (T::rows * T::cols), ld = T::cols;
            }
            __syncthreads(); // everyone is done with the shared memory of the piece before
            tile_product<T, b_vec, stream_k>(smem, A, B, out, ld, M, N, K, m0, k0, s0 * T::depth,
                                             min(N, s1 * T::depth));
            asm volatile("cp.async.wait_all;\n" ::: "memory");
            u += s1 - s0;
        }
    }
}

// stream_k's second pass: every tile that several blocks share is the sum of their pieces,
// in block order. Grid: tiles × parts of a tile; float4s along rows (cols is a multiple of 4).
template <class T> __global__ void add_pieces(float *__restrict__ C, const float *__restrict__ ws, int M, int N, int K,
                                              int group_rows, int per) {
    const int tiles_m = (M + T::rows - 1) / T::rows, tiles_k = (K + T::cols - 1) / T::cols;
    const int spt = (N + T::depth - 1) / T::depth;
    const int tile = blockIdx.x;
    const long long u0 = static_cast<long long>(tile) * spt, u1 = u0 + spt - 1;
    const int b_first = static_cast<int>(u0 / per), b_last = static_cast<int>(u1 / per);
    if (b_first == b_last) return; // one block had the whole tile and wrote C
    int tile_m, tile_k;
    grouped_tile(tile, tiles_m, tiles_k, group_rows, tile_m, tile_k);
    const int m0 = tile_m * T::rows, k0 = tile_k * T::cols;
    const bool vec = K % 4 == 0 && reinterpret_cast<uintptr_t>(C) % 16 == 0;
    for (int e = (blockIdx.y * blockDim.x + threadIdx.x) * 4; e < T::rows * T::cols; e += gridDim.y * blockDim.x * 4) {
        const int r = e / T::cols, c = e % T::cols;
        if (m0 + r >= M || k0 + c >= K) continue;
        float4 sum = make_float4(0, 0, 0, 0);
        for (int b = b_first; b <= b_last; ++b) {
            const int first = static_cast<int>(static_cast<long long>(b) * per / spt);
            const size_t slot = 2 * static_cast<size_t>(b) + (tile != first);
            const float4 v = *reinterpret_cast<const float4 *>(ws + slot * (T::rows * T::cols) + e);
            if (b == b_first) {
                sum = v;
            } else {
                sum.x += v.x;
                sum.y += v.y;
                sum.z += v.z;
                sum.w += v.w;
            }
        }
        float *row = C + static_cast<size_t>(m0 + r) * K + k0;
        store4(row, c, K - k0, vec, &sum.x);
    }
}

// C += partials[0] + partials[1] + … in that order (parts arrays of n floats each).
__global__ void add_partials(float *__restrict__ C, const float *__restrict__ partials, size_t n, int parts, bool vec) {
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    const size_t first = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (vec) { // n % 4 == 0 and C 16-byte aligned: every part starts aligned too
        float4 *c4 = reinterpret_cast<float4 *>(C);
        const float4 *p4 = reinterpret_cast<const float4 *>(partials);
        const size_t n4 = n / 4;
        for (size_t i = first; i < n4; i += stride) {
            float4 c = c4[i];
            for (int s = 0; s < parts; ++s) {
                const float4 p = p4[s * n4 + i];
                c.x += p.x;
                c.y += p.y;
                c.z += p.z;
                c.w += p.w;
            }
            c4[i] = c;
        }
        return;
    }
    for (size_t i = first; i < n; i += stride) {
        float c = C[i];
        for (int s = 0; s < parts; ++s) c += partials[s * n + i];
        C[i] = c;
    }
}

// The measured winner for large products (rung 9), a small tiling for small products
// (84: its speed relative to the first at 8192³), and the narrow one for narrow C (90: measured
// at 32768×1024×96 and 3001×2999×3003, docs/perf-notes.md).
using Candidates = std::tuple<Tiling<128, 256, 16, 64, 64, 4, 2, 1>, Tiling<64, 64, 8, 32, 32, 4, 2, 4, 84>,
                              Tiling<128, 96, 16, 32, 96, 4, 2, 2, 90>>;
constexpr int group_rows = 8;
constexpr int max_splits = 64;
constexpr size_t max_workspace_bytes = size_t(512) << 20;
constexpr double rate_100 = 48e12; // FLOP/s of the best tiling with every SM busy (rung 9: 47.5–48.7)
constexpr double bandwidth = 2.5e12, launch_seconds = 4e-6;
constexpr double stream_k_penalty = 1.15;

struct Problem {
    const float *A, *B;
    float *C;
    int M, N, K;
    bool b_vec;
    int sms;
};

struct Plan {
    double seconds = 1e300;
    int tiling = 0, mode = plain, splits = 1, chunk = 0; // split_k: splits of chunk each
    int blocks = 0, per = 0;                             // stream_k: blocks of per slices
    size_t workspace_floats = 0;
};

template <class T, int mode> auto kernel_for(bool b_vec) {
    if constexpr (mode == plain && T::b_fixed)
        return b_vec ? rung9_gemm<T, true> : rung9_gemm<T, false>;
    else
        return b_vec ? split_gemm<T, true, mode> : split_gemm<T, false, mode>;
}

template <class T> int blocks_per_sm(const Problem &p) {
    static int cache[2] = {-1, -1}; // by b_vec; every mode's kernel gets the shared-memory attribute
    int &per_sm = cache[p.b_vec];
    if (per_sm >= 0) return per_sm;
    cudaFuncSetAttribute(kernel_for<T, plain>(p.b_vec), cudaFuncAttributeMaxDynamicSharedMemorySize, T::smem_bytes);
    cudaFuncSetAttribute(kernel_for<T, split_k>(p.b_vec), cudaFuncAttributeMaxDynamicSharedMemorySize, T::smem_bytes);
    cudaFuncSetAttribute(kernel_for<T, stream_k>(p.b_vec), cudaFuncAttributeMaxDynamicSharedMemorySize, T::smem_bytes);
    int n = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel_for<T, stream_k>(p.b_vec), T::threads, T::smem_bytes);
    int n_plain = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n_plain, kernel_for<T, plain>(p.b_vec), T::threads, T::smem_bytes);
    per_sm = std::min(n, n_plain);
    return per_sm;
}

// The wave model: a resident block runs at rate_100 × speed / (SMs × blocks per SM); a grid takes
// whole waves of its chunk (plus 32 of reduction length for the prologue and the epilogue);
// split_k adds its second kernel's bytes ((S + 1)·M·K floats), stream_k its pieces' (written
// and read) and C's. S > 1 must win by 3% (its estimate × 1.03); stream_k by 15%: measured on the
// H200, its kernel (the generic one, 233 registers) runs ~5% slower a slice than rung 9's and its
// fixup costs more than the bytes say: at 3001×2999×3003 it took 1.363 ms (1.087 × its model
// time) where the narrow tiling took 1.327 (0.969 × its own); 1.15 ≈ 1.087 / 0.969 plus a margin
// (docs/perf-notes.md, rung 10). No ranked shape picks stream_k.
template <class T> struct Model {
    double tiles, slots, slot_rate, mk;
    bool ok;
    explicit Model(const Problem &p) {
        const int per_sm = blocks_per_sm<T>(p);
        ok = per_sm > 0;
        tiles = static_cast<double>((p.M + T::rows - 1) / T::rows) * ((p.K + T::cols - 1) / T::cols);
        slots = static_cast<double>(p.sms) * std::max(per_sm, 1);
        slot_rate = rate_100 * T::speed_percent / 100.0 / slots;
        mk = static_cast<double>(p.M) * p.K;
    }
};

template <class T> Plan split_plan(const Problem &p, int index, int s) { // plain when s = 1
    const Model<T> m(p);
    Plan plan;
    const int chunk = ((p.N + s - 1) / s + T::depth - 1) / T::depth * T::depth;
    const int splits = (p.N + chunk - 1) / chunk;
    if (!m.ok || splits != s) return plan; // s = splits is the same split
    if (s > 1 && (chunk < 128 || (s - 1) * m.mk * 4 > max_workspace_bytes)) return plan;
    const double waves = static_cast<double>(static_cast<long long>((m.tiles * s + m.slots - 1) / m.slots));
    double seconds = waves * 2.0 * T::rows * T::cols * (chunk + 32.0) / m.slot_rate;
    if (s > 1) seconds = seconds * 1.03 + (s + 1) * m.mk * 4 / bandwidth + launch_seconds;
    plan.seconds = seconds, plan.tiling = index, plan.mode = s > 1 ? split_k : plain;
    plan.splits = s, plan.chunk = s > 1 ? chunk : p.N;
    plan.workspace_floats = static_cast<size_t>(s - 1) * p.M * p.K;
    return plan;
}

// stream_k: one wave of `slots` blocks over tiles × slices; worth it when the waves round badly
template <class T> Plan stream_plan(const Problem &p, int index) {
    const Model<T> m(p);
    Plan plan;
    const long long spt = (p.N + T::depth - 1) / T::depth;
    const long long total = static_cast<long long>(m.tiles) * spt;
    const long long per = (total + static_cast<long long>(m.slots) - 1) / static_cast<long long>(m.slots);
    if (!m.ok || per < 4 || per > (1 << 30)) return plan;
    const int blocks = static_cast<int>((total + per - 1) / per);
    const size_t ws_floats = static_cast<size_t>(blocks) * 2 * T::rows * T::cols;
    if (ws_floats * 4 > max_workspace_bytes) return plan;
    const double pieces = static_cast<double>((per + spt - 1) / spt + 1);
    const double slice_seconds = 2.0 * T::rows * T::cols * T::depth / m.slot_rate;
    plan.seconds = ((per + 2.0 * pieces) * slice_seconds + 2.0 * ws_floats * 4 / bandwidth + m.mk * 4 / bandwidth +
                    launch_seconds) *
                   stream_k_penalty;
    plan.tiling = index, plan.mode = stream_k, plan.chunk = p.N;
    plan.blocks = blocks, plan.per = static_cast<int>(per);
    plan.workspace_floats = ws_floats;
    return plan;
}

template <class T> void consider(const Problem &p, int index, Plan &best) {
    for (int s = 1; s <= max_splits; ++s) {
        const Plan plan = split_plan<T>(p, index, s);
        if (plan.seconds < best.seconds) best = plan;
    }
    const Plan plan = stream_plan<T>(p, index);
    if (plan.seconds < best.seconds) best = plan;
}

template <class... Ts> Plan choose(const Problem &p, std::tuple<Ts...> *) {
    Plan best;
    int i = 0;
    ((consider<Ts>(p, i++, best)), ...);
    return best;
}

float *workspace(size_t bytes) {
    static float *ws = nullptr;
    static size_t have = 0;
    if (bytes <= have) return ws;
    if (ws) cudaFree(ws);
    ws = nullptr;
    have = 0;
    if (cudaMalloc(&ws, bytes) != cudaSuccess) {
        cudaGetLastError();
        ws = nullptr;
        return nullptr;
    }
    have = bytes;
    return ws;
}

template <class T> void launch(const Problem &p, const Plan &plan, float *ws) {
    const unsigned tiles = static_cast<unsigned>((p.M + T::rows - 1) / T::rows) * ((p.K + T::cols - 1) / T::cols);
    if (plan.mode == plain) {
        if constexpr (T::b_fixed)
            kernel_for<T, plain>(p.b_vec)<<<tiles, T::threads, T::smem_bytes>>>(p.A, p.B, p.C, p.M, p.N, p.K,
                                                                                group_rows);
        else
            kernel_for<T, plain>(p.b_vec)<<<tiles, T::threads, T::smem_bytes>>>(p.A, p.B, p.C, ws, p.M, p.N, p.K, p.N,
                                                                                group_rows, 0);
    } else if (plan.mode == split_k) {
        kernel_for<T, split_k>(p.b_vec)<<<dim3(tiles, plan.splits), T::threads, T::smem_bytes>>>(
            p.A, p.B, p.C, ws, p.M, p.N, p.K, plan.chunk, group_rows, 0);
        const size_t n = static_cast<size_t>(p.M) * p.K;
        const bool vec = n % 4 == 0 && reinterpret_cast<uintptr_t>(p.C) % 16 == 0;
        const size_t work = vec ? n / 4 : n;
        const unsigned blocks =
            static_cast<unsigned>(std::min<size_t>((work + 255) / 256, static_cast<size_t>(p.sms) * 8));
        add_partials<<<blocks, 256>>>(p.C, ws, n, plan.splits - 1, vec);
    } else {
        kernel_for<T, stream_k>(p.b_vec)<<<plan.blocks, T::threads, T::smem_bytes>>>(p.A, p.B, p.C, ws, p.M, p.N, p.K,
                                                                                     p.N, group_rows, plan.per);
        // parts of a tile per block of the second pass: enough blocks to fill the SMs
        const int parts = std::max(1, std::min(T::rows * T::cols / 1024, static_cast<int>(4 * p.sms / tiles)));
        add_pieces<T><<<dim3(tiles, parts), 256>>>(p.C, ws, p.M, p.N, p.K, group_rows, plan.per);
    }
}

template <class... Ts> void launch_plan(const Problem &p, const Plan &plan, float *ws, std::tuple<Ts...> *) {
    int i = 0;
    ((i++ == plan.tiling ? launch<Ts>(p, plan, ws) : void()), ...);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    Problem p{A, B, C, M, N, K, K % 4 == 0 && reinterpret_cast<uintptr_t>(B) % 16 == 0, 0};
    static int sms = 0;
    if (!sms) {
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    }
    p.sms = sms;
    auto *candidates = static_cast<Candidates *>(nullptr);
    Plan plan = choose(p, candidates);
#ifdef TUNE_PLAN_ENV // scripts/ladder-bench experiments only: SPLITK_PLAN="tiling,splits" (splits 0: stream_k)
    if (const char *forced = getenv("SPLITK_PLAN")) {
        int tiling = 0, splits = 1;
        if (sscanf(forced, "%d,%d", &tiling, &splits) == 2 && splits >= 0) {
            int i = 0;
            Plan f;
            auto pick = [&](auto tiling_type) {
                using T = decltype(tiling_type);
                if (i++ == tiling) f = splits == 0 ? stream_plan<T>(p, tiling) : split_plan<T>(p, tiling, splits);
            };
            std::apply([&](auto... ts) { (pick(ts), ...); }, Candidates{});
            if (f.seconds < 1e300)
                plan = f;
            else
                fprintf(stderr, "SPLITK_PLAN %s: no such plan\n", forced);
        }
    }
#endif
    float *ws = nullptr;
    if (plan.mode != plain) {
        ws = workspace(plan.workspace_floats * sizeof(float));
        if (!ws) plan.mode = plain, plan.splits = 1, plan.chunk = N; // no memory for the workspace
    }
    launch_plan(p, plan, ws, candidates);
    cudaDeviceSynchronize();
}
