// Rung 8 — warp_tiled: each warp owns a 32×64 sub-tile; lanes laid out for broadcast LDS.128.
//
// Technique: rung 7's pipeline (128×128 tile, 8-deep slices, 3 cp.async stages, 8×8 of C
// per thread as 2×2 pieces of 4×4), with the threads regrouped by warp. The 8 warps tile
// the block 4 (rows) × 2 (columns); inside its 32×64 sub-tile a warp's 32 lanes form a
// 4×8 grid, and lane (r, c) owns rows 4r…4r+3 and 16+4r…, columns 4c…4c+3 and 32+4c….
// What a warp reads from shared memory per step of the reduction is then 32 A values and
// 64 B values (384 bytes), against 16 + 128 (576 bytes) for rung 7's warp, whose 32
// threads spanned all 128 columns; and every LDS.128 asks for at most 8 distinct float4s
// that lie side by side. The hope was fewer shared-memory passes; the measurement says the
// hardware serves both layouts in the same number of wavefronts (it splits a warp's
// 16-byte loads into groups of lanes and merges little across them), so this rung is the
// layout the larger warp tiles of rung 9 build on, not a gain by itself.
//
//   block 128×128 = 4×2 warps          warp 32×64: lane = 8r + c
//   ┌────────┬────────┐                ┌──────────────┬──────────────┐
//   │ warp 0 │ warp 1 │                │ rows 4r…+3   │ rows 4r…+3   │
//   ├────────┼────────┤                │ cols 4c…+3   │ cols 32+4c…  │
//   │ warp 2 │ warp 3 │                ├──────────────┼──────────────┤
//   ├────────┼────────┤                │ rows 16+4r…  │ rows 16+4r…  │
//   │   …    │   …    │                │ cols 4c…+3   │ cols 32+4c…  │
//   └────────┴────────┘                └──────────────┴──────────────┘
// An A read (lanes with the same r share an address) touches 4 float4s, a B read
// 8 consecutive float4s: both broadcast-friendly, conflict-free.
// Copies, edges and alignment exactly as rung 7: A 4 bytes at a time into the padded
// transposed slice, B 16 bytes at a time when its rows are aligned, zero-filled edges.
// Changed from rung 7 (07-async-pipeline.cu): the thread → output mapping, by warp.
// Measured on an NVIDIA H200 (bench, same run as cuBLAS; docs/perf-notes.md): 4096³
// 40.0 TFLOP/s = 0.830× cuBLAS SGEMM — the same as rung 7; 8192³ 40.8 = 0.803×;
// 8192×6144×4096 40.7 = 0.815×; 4097×4095×4093 38.8 = 0.809×. ncu counts the same
// instructions and the same shared-memory wavefronts as rung 7 (2.74 per LDS.128): shared
// memory was never the limit (45% busy); issue slots are. 123/127 registers, 24.4 KB shared.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int tile_m = 128;
constexpr int tile_k = 128;
constexpr int slice = 8;
constexpr int stages = 3;
constexpr int warp_m = 32; // a warp's sub-tile: 32 rows × 64 columns
constexpr int warp_k = 64;
constexpr int lane_rows = 4; // lanes as a 4×8 grid over the sub-tile
constexpr int lane_cols = 8;
constexpr int piece = 4;                    // each lane: 2×2 pieces of 4×4
constexpr int piece_dm = lane_rows * piece; // 16: distance between a lane's row pieces
constexpr int piece_dk = lane_cols * piece; // 32: distance between its column pieces
constexpr int a_pitch = tile_m + 4;
constexpr int threads = (tile_m / warp_m) * (tile_k / warp_k) * 32;
static_assert(lane_rows * lane_cols == 32 && 2 * piece_dm == warp_m && 2 * piece_dk == warp_k, "2×2 pieces per lane");
constexpr int a_rows_per_pass = threads / slice; // A copies: lanes run along a row's 8 floats
constexpr int a_passes = tile_m / a_rows_per_pass;
constexpr int b_scalar_passes = slice * tile_k / threads;

struct Stage {
    float a[slice][a_pitch];
    float b[slice][tile_k];
};

// cp.async's src-size operand: with `in` false nothing is read and the destination is zeroed.
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

template <bool b_aligned> __global__ void __launch_bounds__(threads)
    warp_tiled_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
    __shared__ __align__(16) Stage stage[stages];
    const int t = threadIdx.x;
    const int tiles_k = (K + tile_k - 1) / tile_k;
    const int m0 = (blockIdx.x / tiles_k) * tile_m;
    const int k0 = (blockIdx.x % tiles_k) * tile_k;
    const int slices = (N + slice - 1) / slice;

    // A copies: element (row a_m + pass·32, column a_n) of each slice.
    const int a_n = t % slice, a_m = t / slice;
    const float *a_src[a_passes];
    bool a_row_in[a_passes];
#pragma unroll
    for (int pass = 0; pass < a_passes; ++pass) {
        const int row = m0 + a_m + pass * a_rows_per_pass;
        a_row_in[pass] = row < M;
        a_src[pass] = A + static_cast<size_t>(a_row_in[pass] ? row : 0) * N;
    }
    // B copies: one float4 (row b_n, columns b_k…+3) when aligned, else 4 scalars per thread.
    const int b_n = t / (tile_k / 4), b_k = (t % (tile_k / 4)) * 4;

    auto load_slice = [&](Stage &s, int base) {
        const bool a_col_in = base + a_n < N;
#pragma unroll
        for (int pass = 0; pass < a_passes; ++pass) {
            const bool in = a_row_in[pass] && a_col_in;
            copy4(&s.a[a_n][a_m + pass * a_rows_per_pass], a_src[pass] + (in ? base + a_n : 0), in);
        }
        if (b_aligned) {
            const bool in = base + b_n < N && k0 + b_k < K;
            copy16(&s.b[b_n][b_k], B + (in ? static_cast<size_t>(base + b_n) * K + k0 + b_k : 0), in);
        } else {
#pragma unroll
            for (int pass = 0; pass < b_scalar_passes; ++pass) {
                const int e = t + pass * threads;
                const int row = e / tile_k, col = e % tile_k;
                const bool in = base + row < N && k0 + col < K;
                copy4(&s.b[row][col], B + (in ? static_cast<size_t>(base + row) * K + k0 + col : 0), in);
            }
        }
    };

    const int warp = t / 32, lane = t % 32;
    const int row0 = (warp / (tile_k / warp_k)) * warp_m + (lane / lane_cols) * piece;
    const int col0 = (warp % (tile_k / warp_k)) * warp_k + (lane % lane_cols) * piece;
    float sum[2 * piece][2 * piece] = {};

#pragma unroll
    for (int s = 0; s < stages - 1; ++s) {
        if (s < slices) load_slice(stage[s], s * slice);
        commit(); // an empty group keeps the count of groups per slice fixed
    }
    for (int s = 0; s < slices; ++s) {
        wait_until_pending<stages - 2>();
        __syncthreads();
        const int ahead = s + stages - 1;
        if (ahead < slices) load_slice(stage[ahead % stages], ahead * slice);
        commit();
        const Stage &cur = stage[s % stages];
#pragma unroll
        for (int p = 0; p < slice; ++p) {
            float a_reg[2 * piece], b_reg[2 * piece];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                *reinterpret_cast<float4 *>(&a_reg[h * piece]) =
                    *reinterpret_cast<const float4 *>(&cur.a[p][row0 + h * piece_dm]);
                *reinterpret_cast<float4 *>(&b_reg[h * piece]) =
                    *reinterpret_cast<const float4 *>(&cur.b[p][col0 + h * piece_dk]);
            }
#pragma unroll
            for (int i = 0; i < 2 * piece; ++i)
#pragma unroll
                for (int j = 0; j < 2 * piece; ++j) sum[i][j] += a_reg[i] * b_reg[j];
        }
    }
    const bool c_aligned = b_aligned && reinterpret_cast<uintptr_t>(C) % 16 == 0;
#pragma unroll
    for (int i = 0; i < 2 * piece; ++i) {
        const int c_row = m0 + row0 + (i / piece) * piece_dm + i % piece;
        if (c_row >= M) continue;
        float *c = C + static_cast<size_t>(c_row) * K;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const float *v = &sum[i][h * piece];
            store4(c, k0 + col0 + h * piece_dk, K, c_aligned, make_float4(v[0], v[1], v[2], v[3]));
        }
    }
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const unsigned blocks = static_cast<unsigned>((K + tile_k - 1) / tile_k) * ((M + tile_m - 1) / tile_m);
    const bool b_aligned = K % 4 == 0 && reinterpret_cast<uintptr_t>(B) % 16 == 0;
    if (b_aligned)
        warp_tiled_gemm<true><<<blocks, threads>>>(A, B, C, M, N, K);
    else
        warp_tiled_gemm<false><<<blocks, threads>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
