// Straightforward solution of kernelbench/6-matmul-large-k
// (KernelBench: Matmul with large K dimension).
//
// Technique: one thread per output element, 16×16 tiles of both operands staged through
// shared memory (zero-filled past the edges, two barriers per tile), FP32 accumulation in
// the order of the inner index. The output tiles are numbered along blockIdx.x and every
// offset is 64-bit, so any size the problem allows fits.
// A long reduction over few output tiles: slow but exact in its order.
// Not yet measured.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int tile = 16;

// blockIdx.x enumerates the output's tiles row-major, so the grid's x limit (2^31 - 1) rather
// than y's (65535) bounds the number of row tiles; every index is 64-bit.
__global__ void tiled_product(const float *A, const float *B, float *C, size_t rows, size_t inner, size_t cols) {
    __shared__ float a_tile[tile][tile + 1];
    __shared__ float b_tile[tile][tile + 1];
    const size_t column_tiles = (cols + tile - 1) / tile;
    const size_t row0 = blockIdx.x / column_tiles * tile;
    const size_t col0 = blockIdx.x % column_tiles * tile;
    const size_t row = row0 + threadIdx.y;
    const size_t col = col0 + threadIdx.x;
    float sum = 0.0f;
    for (size_t base = 0; base < inner; base += tile) {
        const size_t a_col = base + threadIdx.x;
        const size_t b_row = base + threadIdx.y;
        a_tile[threadIdx.y][threadIdx.x] = (row < rows && a_col < inner) ? A[row * inner + a_col] : 0.0f;
        b_tile[threadIdx.y][threadIdx.x] = (b_row < inner && col < cols) ? B[b_row * cols + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < tile; ++p) sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
        __syncthreads();
    }
    if (row < rows && col < cols) {
        C[row * cols + col] = sum;
    }
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int K, int N) {
    const size_t rows = M, inner = K, cols = N;
    const size_t tiles = ((rows + tile - 1) / tile) * ((cols + tile - 1) / tile);
    tiled_product<<<dim3(static_cast<unsigned>(tiles)), dim3(tile, tile)>>>(A, B, C, rows, inner, cols);
    cudaDeviceSynchronize();
}
