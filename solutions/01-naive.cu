// Rung 1 — naive: one thread per element of C, dot product straight from global memory.
//
// Technique (the seed's first kernel): 16×16 thread blocks; threadIdx.x → output
// column, threadIdx.y → output row, so a warp reads 32 consecutive floats of a row of
// B (coalesced) and one float of A (a broadcast). The grid is rounded up and the
// threads past the edge return at once. Each of the M·K threads reads 2N floats for
// 2N FLOPs: 0.25 FLOP/byte if every read went to DRAM; the L1 and L2 catch most of
// the reuse, which is all that makes this rung usable.
// Changed from the previous rung: none, it is the first.
// Measured on an NVIDIA H200 (judge medians, cuBLAS in the same run; docs/perf-notes.md):
// 4096³ in 25.5 ms = 5.38 TFLOP/s, 10.6% of cuBLAS SGEMM (50.9 TFLOP/s); bound by load
// instructions through L1 — two LDG per FFMA in the SASS.
#include <cuda_runtime.h>

namespace {

constexpr int block_side = 16;

__global__ void naive_gemm(const float *A, const float *B, float *C, int M, int N, int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= K) return;
    float sum = 0.0f;
    // size_t offsets: row·N and p·K exceed 2³¹ on the largest shapes.
    const float *a_row = A + static_cast<size_t>(row) * N;
    for (int p = 0; p < N; ++p) sum += a_row[p] * B[static_cast<size_t>(p) * K + col];
    C[static_cast<size_t>(row) * K + col] = sum;
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    const dim3 block(block_side, block_side);
    const dim3 grid((K + block_side - 1) / block_side, (M + block_side - 1) / block_side);
    naive_gemm<<<grid, block>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
