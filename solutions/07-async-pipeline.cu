// Rung 7 — async_pipeline: a 3-stage cp.async pipeline from global to shared memory.
//
// Technique: rung 6's tile and thread layout (128×128 per block, 256 threads, 2×2
// conflict-free 4×4 pieces per thread, padded transposed A slice), but the slices travel
// with cp.async (sm_80+): the copy engine of each SM moves global memory straight into
// shared memory without passing through registers, while the threads compute. Three
// slices are in flight: while the block multiplies slice s it already has s+1 landed or
// landing and has just asked for s+2, so a slice's DRAM/L2 latency (~1 µs) hides behind
// two slices of arithmetic instead of stalling every thread once per slice. One barrier
// per slice is enough: the barrier at the top of step s both publishes slice s and proves
// that every warp has finished slice s−1, whose buffer the copies for s+2 then reuse.
//
//   step s:  wait(slice s) · barrier · copy(slice s+2 → buffer (s+2) % 3) · compute(s % 3)
//   buffers: ┌─────────┬─────────┬─────────┐
//            │ s (read)│ s+1 (in │ s+2 (   │
//            │         │ flight) │ issued) │
//            └─────────┴─────────┴─────────┘
// cp.async cannot transpose, so the A slice is copied 4 bytes at a time (each thread 4
// elements, lanes along a row's 8 consecutive floats so each copy instruction reads whole
// 32-byte sectors, and the transposed writes land in 32 distinct banks thanks to the
// padding). B goes 16 bytes at a time when its rows are 16-byte aligned (K a multiple of
// 4), else 4 bytes at a time. Outside the matrices the copies read nothing and write
// zeros (the src-size operand of cp.async), from an address clamped into the matrix.
// Changed from rung 6 (06-conflict-free.cu): global→shared copies are asynchronous and
// triple-buffered; one barrier per slice instead of two; A via 4-byte copies.
// Measured on an NVIDIA H200 (bench, same run as cuBLAS; docs/perf-notes.md): 4096³
// 40.0 TFLOP/s = 0.830× cuBLAS SGEMM, 1.07× rung 6; 8192³ 40.7 = 0.803×; 8192×6144×4096
// 40.7 = 0.815×; 4097×4095×4093 39.2 = 0.817× (the 4-byte copies close most of rung 6's
// gap on unaligned rows). 123/127 registers, 24.4 KB shared, no spills.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

constexpr int tile_m = 128;
constexpr int tile_k = 128;
constexpr int slice = 8;
constexpr int stages = 3;
constexpr int piece = 4;
constexpr int half_m = tile_m / 2;
constexpr int half_k = tile_k / 2;
constexpr int a_pitch = tile_m + 4;
constexpr int threads = (half_m / piece) * (half_k / piece);
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
    async_pipeline_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
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

    const int row0 = (t / (half_k / piece)) * piece;
    const int col0 = (t % (half_k / piece)) * piece;
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
                    *reinterpret_cast<const float4 *>(&cur.a[p][row0 + h * half_m]);
                *reinterpret_cast<float4 *>(&b_reg[h * piece]) =
                    *reinterpret_cast<const float4 *>(&cur.b[p][col0 + h * half_k]);
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
        const int c_row = m0 + row0 + (i / piece) * half_m + i % piece;
        if (c_row >= M) continue;
        float *c = C + static_cast<size_t>(c_row) * K;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const float *v = &sum[i][h * piece];
            store4(c, k0 + col0 + h * half_k, K, c_aligned, make_float4(v[0], v[1], v[2], v[3]));
        }
    }
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const unsigned blocks = static_cast<unsigned>((K + tile_k - 1) / tile_k) * ((M + tile_m - 1) / tile_m);
    const bool b_aligned = K % 4 == 0 && reinterpret_cast<uintptr_t>(B) % 16 == 0;
    if (b_aligned)
        async_pipeline_gemm<true><<<blocks, threads>>>(A, B, C, M, N, K);
    else
        async_pipeline_gemm<false><<<blocks, threads>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
