// Rung 9 — h200_tuned: rung 8's warp-tiled cp.async kernel, shaped by measurement on the H200.
//
// Technique: the kernel of rung 8 made generic over its tile shapes (block tile, slice
// depth, warp tile, lane grid, pipeline stages) and tuned on the H200 with
// `scripts/ladder-bench --autotune`. The winner: 128×256 tiles of C, 16-deep slices of
// the reduction, 2 cp.async stages, 8 warps each owning 64×64, lanes 4×8, so each thread
// keeps 16×8 sums: 6 LDS.128 per 128 FFMA, and the SASS main loop is 91.7% FFMA (rung 8:
// 83%). 246 registers, so one block of 8 warps per SM. Besides the shapes:
//  1. Double-buffered register fragments across slices: while the FMAs of step p run, the
//     LDS.128s of step p+1 are in flight — also at the last step of a slice, where the
//     next slice's first fragments are read right after the slice's one barrier.
//  2. Serpentine FMA order (see the loop): +1% measured.
//  3. A tail-aware choice between this tiling and a 64×64 one: each candidate's grid is
//     rounded up to whole waves (132 SMs × resident blocks), weighted by its measured
//     speed. The perf shapes take 128×256 (4097×4093 is exactly 4 waves of 132, where
//     256×128 tiles leave a 5th wave of 16 blocks and measured 21% slower); small or
//     narrow products such as 50000×46000×64 (C 64 wide) take 64×64.
//  4. Grouped block order (blocks walk down 8 tile rows before moving right) for L2
//     locality. Measured: no effect at these shapes (within 0.2% of plain row order) —
//     the A and B panels of one wave already fit in the 60 MB L2.
//  5. Fewer address instructions: row pointers hoisted out of the loop, shared-memory
//     offsets as immediates, no clamping in the reduction direction (cp.async with
//     src-size 0 reads nothing), B copies 16 bytes wide whenever K allows.
//
//   warp tile 64×64, lanes 4 (r) × 8 (c): lane (r, c) owns 4×2 pieces of 4×4,
//   rows 4r + 16i … +3 (i = 0…3) and columns 4c + 32j … +3 (j = 0, 1)
//        cols: 4c   32+4c
//   rows 4r    ┌───┬───┐
//     16+4r    ├───┼───┤     A reads: 4 float4s per LDS.128 (lanes with equal r share),
//     32+4r    ├───┼───┤     B reads: 8 consecutive float4s — no bank conflicts
//     48+4r    └───┴───┘     (ncu: 0 conflicts)
// Edges and alignment as in rungs 7 and 8: A copied 4 bytes at a time into the padded,
// transposed slice; B 16 bytes at a time when K is a multiple of 4, else 4; zero-filled
// outside the matrices; C stored as float4s where aligned, else as predicated scalars.
// Changed from rung 8 (08-warp-tiled.cu): the tile shapes and points 1–5.
// Measured on an NVIDIA H200 (bench, same run as cuBLAS; this tiling in the autotune
// table): 4096³ 47.5 TFLOP/s = 0.970× cuBLAS; 8192³ 48.5 = 0.956×; 8192×6144×4096
// 48.7 = 0.975×; 4097×4095×4093 46.1 = 0.967×. Limiter: issue slots — 81% issue-active
// against cuBLAS's 89%, the difference mostly dispatch stalls (docs/perf-notes.md).
#include <cstdint>
#include <cuda_runtime.h>
#include <tuple>

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
    // B copies, 16-byte: a row of the slice is cols/4 float4s.
    static constexpr int b_rows_per_pass = threads / (cols / 4), b_passes = depth / b_rows_per_pass;
    // B copies, 4-byte (rows of B not 16-byte aligned).
    static constexpr int b_scalar_passes = depth * cols / threads;

    static_assert(rows % warp_rows == 0 && cols % warp_cols == 0, "whole warps per block");
    static_assert(frag_m % 4 == 0 && frag_k % 4 == 0, "lanes own whole 4×4 pieces");
    static_assert(depth % 8 == 0 && rows % a_rows_per_pass == 0, "A copies cover the slice");
    static_assert(b_rows_per_pass >= 1 && depth % b_rows_per_pass == 0, "B copies cover the slice");
    static_assert(depth * cols % threads == 0 && (threads % cols == 0 || cols % threads == 0), "B scalar copies");
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

// Tile coordinates of this block: groups of `group_rows` tile rows, walked column by column.
__device__ void grouped_tile(int tiles_m, int tiles_k, int group_rows, int &tile_m, int &tile_k) {
    const int per_group = group_rows * tiles_k;
    const int group = blockIdx.x / per_group, first = group * group_rows;
    const int height = min(tiles_m - first, group_rows);
    const int in_group = blockIdx.x % per_group;
    tile_m = first + in_group % height;
    tile_k = in_group / height;
}

template <class T, bool b_vec> __global__ void __launch_bounds__(T::threads, T::min_blocks)
    tuned_gemm(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N, int K,
               int group_rows) {
    extern __shared__ __align__(16) float smem[];
    const int t = threadIdx.x;
    int tile_m, tile_k;
    grouped_tile((M + T::rows - 1) / T::rows, (K + T::cols - 1) / T::cols, group_rows, tile_m, tile_k);
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

#ifdef TUNE_TILING // scripts/ladder-bench --autotune: one tiling, given on the command line
using Candidates = std::tuple<Tiling<TUNE_TILING>>;
#else
// The measured winner for large products, and a small tiling for small or narrow ones
// (84: its speed relative to the first at 8192³, same run).
using Candidates = std::tuple<Tiling<128, 256, 16, 64, 64, 4, 2, 1>, Tiling<64, 64, 8, 32, 32, 4, 2, 4, 84>>;
#endif
#ifndef TUNE_GROUP_ROWS
#define TUNE_GROUP_ROWS 8
#endif

struct Problem {
    const float *A, *B;
    float *C;
    int M, N, K;
    bool b_vec;
    int sms;
};

template <class T> auto kernel_for(bool b_vec) { return b_vec ? tuned_gemm<T, true> : tuned_gemm<T, false>; }

// Time a tiling takes, in arbitrary units: its grid rounded up to whole waves (132 SMs × resident
// blocks), times the work of a wave, over the tiling's measured speed.
template <class T> double rounded_time(const Problem &p) {
    const auto kernel = kernel_for<T>(p.b_vec);
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, T::smem_bytes);
    int per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, T::threads, T::smem_bytes);
    if (per_sm == 0) return 1e300;
    const double tiles = static_cast<double>((p.M + T::rows - 1) / T::rows) * ((p.K + T::cols - 1) / T::cols);
    const double slots = static_cast<double>(p.sms) * per_sm;
    const double waves = static_cast<double>(static_cast<long long>((tiles + slots - 1) / slots));
    return waves * slots * T::rows * T::cols / T::speed_percent;
}

template <class T> void launch(const Problem &p) {
    const unsigned blocks = static_cast<unsigned>((p.M + T::rows - 1) / T::rows) * ((p.K + T::cols - 1) / T::cols);
    kernel_for<T>(p.b_vec)<<<blocks, T::threads, T::smem_bytes>>>(p.A, p.B, p.C, p.M, p.N, p.K, TUNE_GROUP_ROWS);
}

template <class... Ts> void launch_cheapest(const Problem &p, std::tuple<Ts...> *) {
    const double time[] = {rounded_time<Ts>(p)...};
    int best = 0;
    for (int i = 1; i < static_cast<int>(sizeof...(Ts)); ++i)
        if (time[i] < time[best]) best = i; // ties go to the earlier, larger tiling
    int i = 0;
    ((i++ == best ? launch<Ts>(p) : void()), ...);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    Problem p{A, B, C, M, N, K, K % 4 == 0 && reinterpret_cast<uintptr_t>(B) % 16 == 0, 0};
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&p.sms, cudaDevAttrMultiProcessorCount, device);
    launch_cheapest(p, static_cast<Candidates *>(nullptr));
    cudaDeviceSynchronize();
}
