// Rung 11 — tf32x3_wgmma: FP32-accurate GEMM on the tensor cores, 3×TF32 split (big·big + big·small + small·big) by
// wgmma and TMA.
//
// Technique: each FP32 input x is split as big = rna_tf32(x) (cvt.rna.tf32.f32), small =
// rna_tf32(x − big); C = small·big + big·small + big·big on the tensor cores (the small·small
// term, ≤ 2⁻²² relative, is dropped). Three kernels per call:
//  1. split_a: A (M×N) → A_big, A_small; split_bt: B (N×K) → Bᵀ_big, Bᵀ_small through a 32×32
//     shared-memory transpose, so both wgmma operands are K-major (tf32 wgmma reads only
//     K-major). Rows of ⌈N/32⌉·32 floats in a workspace cudaMalloc'd once and grown when needed.
//  2. tf32x3_gemm: a 128×128 C tile per block of 3 warpgroups (384 threads, 1 block/SM):
//     warpgroup 0 (setmaxnreg 40) has one thread issue cp.async.bulk.tensor.2d (TMA, tensor maps
//     from cuTensorMapEncodeTiled through cudaGetDriverEntryPointByVersion, 128-byte swizzle,
//     zeros outside M, K and N: no padding writes, no edge logic in the main loop) into a
//     3-stage mbarrier pipeline of 64 KB stages (4 tiles of 128 rows × 32 floats); warpgroups
//     1 and 2 (setmaxnreg 232) each issue wgmma.mma_async m64n128k8.f32.tf32.tf32 from shared
//     memory for 64 rows, 12 per slab of 32 (small terms first), one commit group per slab,
//     wait_group 1 before releasing the previous stage. Bounded chains: every 8 slabs (256 of
//     N) the accumulator restarts (scale-d = 0) and is added into an FP32 register total with
//     round-to-nearest — the tensor cores add with truncation, and one chain over all of N
//     measured 7.5× (uniform[−1,1]) and 8.0× (all-positive) the normwise bound at N = 65536.
//  3. Split-K when the tiles fill at most half the SMs (512×32768×512: 16 tiles × 8 splits of
//     4096): each split writes a workspace slice, sum_splits adds them in split order.
//  N ≤ 16 runs an FFMA kernel (one C element a thread, FP32 FMAs in N order): the split fails
//  the elementwise bound at N ≤ 3, and at small N the product is memory-bound anyway.
// Changed from rung 10 (10-split-k-shapes.cu, FFMA): the whole inner product moves to the tensor
// cores; the FFMA path remains only for N ≤ 16 (and if no workspace can be allocated).
// Measured on an NVIDIA H200 (scripts/ladder_bench, one process, cuBLAS SGEMM pedantic
// interleaved call by call, L2 flushed, median of 11; the split pre-pass and
// cudaDeviceSynchronize included; ratio = cuBLAS time / ours): 4096³ 121.8 TFLOP/s-equivalent
// 2.391×; 8192×6144×4096 127.8 2.518×; 4097×4095×4093 106.6 2.178×; 8192³ 131.4 2.616×;
// 2048³ 97.5 1.987×; 16384×64×16384 46.9 1.394×; 32768×1024×96 31.2 0.925×; 512×32768×512
// 54.8 1.135×; 3001×2999×3003 93.2 2.187×. Rank score (geometric mean over the nine): 1.819×.
// Accuracy (FP64 reference, two fresh input sets each): all 13 shapes of `check --set rung11`
// and all 54 `check --quick` shapes pass both bounds (worst on the tensor path, N > 16:
// elementwise 0.17 at 129×17×129, normwise 0.47 at 512×255×512); 256×N×256 for N = 64 …
// 65536: worst elementwise 0.14 (N = 64, all-positive), worst normwise 0.62 (N = 256,
// all-positive: one full 256-long chunk; 0.47 on uniform[−1,1]), 0.038 at N = 65536 (cuBLAS
// SGEMM: 0.018 at N = 256, 0.002 at N = 65536). docs/perf-notes.md, "Rung 11".
#include <algorithm>
#include <cstdint>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

namespace {

constexpr int BM = 128, BN = 128, BK = 32; // C tile: BM rows of M × BN columns of K; slab of BK along N
constexpr int STAGES = 3;                  // TMA → wgmma pipeline depth
#ifndef TF32_CHUNK_SLABS // scripts/ladder-bench experiments only (accuracy of longer tensor-core chains)
#define TF32_CHUNK_SLABS 8
#endif
constexpr int CHUNK_SLABS = TF32_CHUNK_SLABS; // 8 slabs = 256 of N into a fresh accumulator, then one rounded add
constexpr int TILE_BYTES = BM * BK * 4;       // one 128-row × 128-byte operand tile (16 KB)
constexpr int STAGE_BYTES = 4 * TILE_BYTES;   // A big, A small, Bᵀ big, Bᵀ small
constexpr int SMEM_BYTES = STAGES * STAGE_BYTES + 1024 + 64; // + alignment slack + barriers
constexpr int SMALL_N = 16; // N ≤ SMALL_N: the FFMA kernel (the split fails the bound at N ≤ 3)
constexpr int GROUP_M = 8;  // tile rows per raster group (L2 reuse)

__device__ __forceinline__ uint32_t smem_u32(const void *p) {
    return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbar_init(uint32_t bar, int count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity) {
    asm volatile("{\n.reg .pred P1;\n"
                 "LAB_WAIT:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                 "@P1 bra DONE;\n"
                 "bra LAB_WAIT;\n"
                 "DONE:\n}\n" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map, uint32_t bar, int c0, int c1) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];\n" ::
            "r"(dst),
        "l"(reinterpret_cast<uint64_t>(map)), "r"(bar), "r"(c0), "r"(c1)
        : "memory");
}

// wgmma shared-memory descriptor: K-major, 128-byte swizzle, 8-row groups 1024 bytes apart.
__device__ __forceinline__ uint64_t smem_desc(uint32_t addr) {
    return static_cast<uint64_t>((addr & 0x3FFFF) >> 4) | (static_cast<uint64_t>(1) << 16) |
           (static_cast<uint64_t>(1024 >> 4) << 32) | (static_cast<uint64_t>(1) << 62);
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
}
__device__ __forceinline__ void fence_operands(float (&d)[64]) {
#pragma unroll
    for (int i = 0; i < 64; ++i) asm volatile("" : "+f"(d[i])::"memory");
}

__device__ __forceinline__ void wgmma_m64n128k8(float (&d)[64], uint64_t desc_a, uint64_t desc_b, int scale_d) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, "
                 "%22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, "
                 "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, "
                 "%62, %63}, %64, %65, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]),
                   "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]),
                   "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]),
                   "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]),
                   "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]),
                   "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]),
                   "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "l"(desc_a), "l"(desc_b), "r"(scale_d));
}

__device__ __forceinline__ float tf32_rna(float x) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
}

// A (M×N, row-major) → big and small TF32 parts, rows of ld floats (ld a multiple of 32).
__global__ void split_a(const float *__restrict__ A, float *__restrict__ hi, float *__restrict__ lo, int M, int N,
                        int ld, bool vec4) {
    const int lane = threadIdx.x % 32;
    const int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, warps = gridDim.x * blockDim.x / 32;
    for (int row = warp; row < M; row += warps) {
        const float *a = A + static_cast<size_t>(row) * N;
        float *h = hi + static_cast<size_t>(row) * ld, *l = lo + static_cast<size_t>(row) * ld;
        if (vec4) {
#pragma unroll 4
            for (int c = lane; c < N / 4; c += 32) {
                const float4 x = reinterpret_cast<const float4 *>(a)[c];
                float4 bh, bl;
                bh.x = tf32_rna(x.x), bl.x = tf32_rna(x.x - bh.x);
                bh.y = tf32_rna(x.y), bl.y = tf32_rna(x.y - bh.y);
                bh.z = tf32_rna(x.z), bl.z = tf32_rna(x.z - bh.z);
                bh.w = tf32_rna(x.w), bl.w = tf32_rna(x.w - bh.w);
                reinterpret_cast<float4 *>(h)[c] = bh;
                reinterpret_cast<float4 *>(l)[c] = bl;
            }
        } else {
#pragma unroll 4
            for (int c = lane; c < N; c += 32) {
                const float x = a[c], b = tf32_rna(x);
                h[c] = b;
                l[c] = tf32_rna(x - b);
            }
        }
    }
}

// B (N×K, row-major) → Bᵀ's big and small parts (K rows of ld floats): both wgmma operands K-major.
__global__ void split_bt(const float *__restrict__ B, float *__restrict__ hi, float *__restrict__ lo, int N, int K,
                         int ld) {
    __shared__ float t[32][33];
    const int tx = threadIdx.x, ty = threadIdx.y; // 32 × 8
    for (int nb = blockIdx.y; nb * 32 < N; nb += gridDim.y)
        for (int kb = blockIdx.x; kb * 32 < K; kb += gridDim.x) {
            const int n0 = nb * 32, k0 = kb * 32;
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int n = n0 + ty + 8 * j, k = k0 + tx;
                t[ty + 8 * j][tx] = n < N && k < K ? B[static_cast<size_t>(n) * K + k] : 0.0f;
            }
            __syncthreads();
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int k = k0 + ty + 8 * j, n = n0 + tx;
                if (k < K && n < N) {
                    const float x = t[tx][ty + 8 * j], b = tf32_rna(x);
                    hi[static_cast<size_t>(k) * ld + n] = b;
                    lo[static_cast<size_t>(k) * ld + n] = tf32_rna(x - b);
                }
            }
            __syncthreads();
        }
}

// Main kernel: warpgroup 0 loads (one thread issues TMA), warpgroups 1 and 2 each own 64 rows × 128 columns.
__global__ void __launch_bounds__(384, 1)
    tf32x3_gemm(const __grid_constant__ CUtensorMap map_ah, const __grid_constant__ CUtensorMap map_al,
                const __grid_constant__ CUtensorMap map_bh, const __grid_constant__ CUtensorMap map_bl, float *out,
                int M, int K, int slabs_total, int slabs_per_split, int tiles_m, int tiles_k, size_t split_stride) {
    extern __shared__ unsigned char smem_raw[];
    const uint32_t raw = smem_u32(smem_raw);
    const uint32_t base = (raw + 1023) & ~1023u; // 128-byte swizzle: tiles 1024-byte aligned
    const uint32_t bars = base + STAGES * STAGE_BYTES;
    auto full = [&](int s) { return bars + 8 * s; };
    auto empty = [&](int s) { return bars + 8 * (STAGES + s); };
    const int wg = threadIdx.x / 128, tid = threadIdx.x % 128;

    // grouped raster: GROUP_M tile rows sweep the tile columns together
    const int tile = blockIdx.x, group_tiles = GROUP_M * tiles_k;
    const int first_m = tile / group_tiles * GROUP_M, rows_in = min(tiles_m - first_m, GROUP_M);
    const int tm = first_m + tile % group_tiles % rows_in, tk = tile % group_tiles / rows_in;
    const int split = blockIdx.y;
    const int s_begin = split * slabs_per_split, nslabs = min(slabs_total, s_begin + slabs_per_split) - s_begin;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(full(s), 1);
            mbar_init(empty(s), 2);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();

    if (wg == 0) {
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        if (tid == 0) {
            for (int i = 0; i < nslabs; ++i) {
                const int s = i % STAGES;
                mbar_wait(empty(s), ((i / STAGES) & 1) ^ 1);
                const uint32_t st = base + s * STAGE_BYTES;
                mbar_expect_tx(full(s), STAGE_BYTES);
                const int n0 = (s_begin + i) * BK;
                tma_load_2d(st, &map_ah, full(s), n0, tm * BM);
                tma_load_2d(st + TILE_BYTES, &map_al, full(s), n0, tm * BM);
                tma_load_2d(st + 2 * TILE_BYTES, &map_bh, full(s), n0, tk * BN);
                tma_load_2d(st + 3 * TILE_BYTES, &map_bl, full(s), n0, tk * BN);
            }
        }
    } else {
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        const int cw = wg - 1;
        float total[64], acc[64];
#pragma unroll
        for (int j = 0; j < 64; ++j) total[j] = 0.0f, acc[j] = 0.0f;
        for (int i = 0; i < nslabs;) {
            const int chunk_begin = i, chunk_end = min(i + CHUNK_SLABS, nslabs);
            for (; i < chunk_end; ++i) {
                const int s = i % STAGES;
                mbar_wait(full(s), (i / STAGES) & 1);
                const uint32_t ah = base + s * STAGE_BYTES + cw * 64 * 128, al = ah + TILE_BYTES;
                const uint32_t bh = base + s * STAGE_BYTES + 2 * TILE_BYTES, bl = bh + TILE_BYTES;
                const int keep = i != chunk_begin; // 0: the chunk's first product overwrites the accumulator
                fence_operands(acc);
                wgmma_fence();
#pragma unroll
                for (int kk = 0; kk < BK / 8; ++kk) { // small terms first, then big·big
                    wgmma_m64n128k8(acc, smem_desc(al + 32 * kk), smem_desc(bh + 32 * kk), kk == 0 ? keep : 1);
                    wgmma_m64n128k8(acc, smem_desc(ah + 32 * kk), smem_desc(bl + 32 * kk), 1);
                    wgmma_m64n128k8(acc, smem_desc(ah + 32 * kk), smem_desc(bh + 32 * kk), 1);
                }
                wgmma_commit();
                wgmma_wait<1>(); // the previous slab's products are done: its stage goes back to the loader
                fence_operands(acc);
                if (tid == 0 && i != chunk_begin) mbar_arrive(empty((i - 1) % STAGES));
            }
            wgmma_wait<0>(); // chunk done: round it into the FP32 total
            fence_operands(acc);
            if (tid == 0) mbar_arrive(empty((chunk_end - 1) % STAGES));
#pragma unroll
            for (int j = 0; j < 64; ++j) total[j] += acc[j];
        }
        // epilogue: accumulator layout of m64nNk8 — lane owns rows r, r + 8 and column pairs 8·j + 2·(lane % 4)
        float *dst = out + split * split_stride;
        const int warp = tid / 32, lane = tid % 32;
        const int r0 = tm * BM + cw * 64 + warp * 16 + lane / 4, c0 = tk * BN + 2 * (lane % 4);
        const bool pairs = K % 2 == 0;
#pragma unroll
        for (int j = 0; j < 16; ++j)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int row = r0 + 8 * h, col = c0 + 8 * j;
                if (row >= M) continue;
                float *p = dst + static_cast<size_t>(row) * K + col;
                const float v0 = total[4 * j + 2 * h], v1 = total[4 * j + 2 * h + 1];
                if (pairs && col + 1 < K) {
                    *reinterpret_cast<float2 *>(p) = make_float2(v0, v1);
                } else {
                    if (col < K) p[0] = v0;
                    if (col + 1 < K) p[1] = v1;
                }
            }
    }
}

// split-K's second pass: C = ((W₀ + W₁) + W₂) + … in split order (deterministic).
__global__ void sum_splits(const float *__restrict__ ws, float *__restrict__ C, size_t n, int splits) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        float s = ws[i];
        for (int k = 1; k < splits; ++k) s += ws[k * n + i];
        C[i] = s;
    }
}

// N ≤ SMALL_N (and the fallback when no workspace can be had): one C element a thread, FFMA in N order.
__global__ void small_n(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C, int M, int N,
                        int K) {
    for (int row = blockIdx.y; row < M; row += gridDim.y)
        for (int col = blockIdx.x * blockDim.x + threadIdx.x; col < K; col += gridDim.x * blockDim.x) {
            const float *a = A + static_cast<size_t>(row) * N;
            float s = 0.0f;
            for (int n = 0; n < N; ++n) s = fmaf(a[n], B[static_cast<size_t>(n) * K + col], s);
            C[static_cast<size_t>(row) * K + col] = s;
        }
}

PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
    static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    if (!fn) {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) ==
                cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
    }
    return fn;
}

// rows × cols (cols = N, the reduction) at stride ld floats; box 32 × 128, 128-byte swizzle, zeros outside.
bool make_map(CUtensorMap *map, float *base, int rows, int cols, int ld) {
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(cols), static_cast<cuuint64_t>(rows)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(ld) * sizeof(float)};
    const cuuint32_t box[2] = {BK, BM}, elem[2] = {1, 1};
    auto fn = encode_tiled();
    return fn && fn(map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, base, dims, strides, box, elem,
                    CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

float *workspace(size_t bytes) { // grown when a larger one is needed, kept across calls
    static float *ws = nullptr;
    static size_t have = 0;
    if (bytes <= have) return ws;
    if (ws) cudaFree(ws);
    ws = nullptr, have = 0;
    if (cudaMalloc(&ws, bytes) != cudaSuccess) {
        cudaGetLastError();
        ws = nullptr;
        return nullptr;
    }
    have = bytes;
    return ws;
}

void run_small(const float *A, const float *B, float *C, int M, int N, int K) {
    const dim3 grid((K + 255) / 256, M < 65535 ? M : 65535);
    small_n<<<grid, 256>>>(A, B, C, M, N, K);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    if (M <= 0 || K <= 0) return;
    if (N <= 0) {
        cudaMemset(C, 0, static_cast<size_t>(M) * K * sizeof(float));
        cudaDeviceSynchronize();
        return;
    }
    static int sms = 0;
    if (!sms) {
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        cudaFuncSetAttribute(tf32x3_gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
    }
    if (N <= SMALL_N) {
        run_small(A, B, C, M, N, K);
        cudaDeviceSynchronize();
        return;
    }
    const int ld = (N + 31) / 32 * 32, slabs = ld / BK;
    const int tiles_m = (M + BM - 1) / BM, tiles_k = (K + BN - 1) / BN, tiles = tiles_m * tiles_k;
    // split-K when the tiles fill under half the SMs: one wave of ≤ sms blocks, ≥ one chunk a split
    int splits = 1, per = slabs;
    if (2 * tiles <= sms) {
        splits = std::min(sms / tiles, (slabs + CHUNK_SLABS - 1) / CHUNK_SLABS);
        per = ((slabs + splits - 1) / splits + CHUNK_SLABS - 1) / CHUNK_SLABS * CHUNK_SLABS;
        splits = (slabs + per - 1) / per;
    }
    const size_t a_n = static_cast<size_t>(M) * ld, b_n = static_cast<size_t>(K) * ld;
    const size_t c_n = static_cast<size_t>(M) * K;
    const size_t floats = 2 * a_n + 2 * b_n + (splits > 1 ? splits * c_n : 0);
    float *ws = workspace(floats * sizeof(float));
    CUtensorMap maps[4];
    float *ah = ws, *al = ws + a_n, *bh = ws + 2 * a_n, *bl = bh + b_n, *parts = bl + b_n;
    if (!ws || !make_map(&maps[0], ah, M, N, ld) || !make_map(&maps[1], al, M, N, ld) ||
        !make_map(&maps[2], bh, K, N, ld) || !make_map(&maps[3], bl, K, N, ld)) {
        run_small(A, B, C, M, N, K); // no workspace or no tensor maps: slow but correct
        cudaDeviceSynchronize();
        return;
    }
    const bool vec4 = N % 4 == 0 && reinterpret_cast<uintptr_t>(A) % 16 == 0;
    split_a<<<sms * 8, 256>>>(A, ah, al, M, N, ld, vec4);
    const dim3 tgrid(std::min((K + 31) / 32, 1 << 20), std::min((N + 31) / 32, 65535));
    split_bt<<<tgrid, dim3(32, 8)>>>(B, bh, bl, N, K, ld);
    const dim3 grid(tiles, splits);
    tf32x3_gemm<<<grid, 384, SMEM_BYTES>>>(maps[0], maps[1], maps[2], maps[3], splits > 1 ? parts : C, M, K, slabs, per,
                                           tiles_m, tiles_k, splits > 1 ? c_n : 0);
    if (splits > 1) sum_splits<<<sms * 8, 256>>>(parts, C, c_n, splits);
    cudaDeviceSynchronize();
}
