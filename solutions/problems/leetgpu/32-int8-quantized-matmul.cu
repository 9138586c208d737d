// Straightforward solution of leetgpu/32-int8-quantized-matmul (LeetGPU: INT8 Quantized MatMul).
//
// Technique: one thread per output element, 16×16 tiles of both operands staged through
// shared memory as int32 with the zero points already subtracted (zero past the edges),
// exact int32 accumulation. Then the site's formula in FP32, in its order: multiply by
// scale_A, then by scale_B, divide by scale_C (IEEE division), round half to even
// (rintf), add zero_point_C, clamp to [-128, 127]. Output tiles are numbered along
// blockIdx.x and every offset is 64-bit.
// Not yet measured.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace {

constexpr int tile = 16;

// blockIdx.x enumerates the output's tiles row-major, so the grid's x limit (2^31 - 1) rather
// than y's (65535) bounds the number of row tiles; every index is 64-bit.
__global__ void tiled_product(const int8_t *A, const int8_t *B, int8_t *C, size_t rows, size_t inner, size_t cols,
                              float scale_A, float scale_B, float scale_C, int zero_point_A, int zero_point_B,
                              int zero_point_C) {
    __shared__ int a_tile[tile][tile + 1];
    __shared__ int b_tile[tile][tile + 1];
    const size_t column_tiles = (cols + tile - 1) / tile;
    const size_t row0 = blockIdx.x / column_tiles * tile;
    const size_t col0 = blockIdx.x % column_tiles * tile;
    const size_t row = row0 + threadIdx.y;
    const size_t col = col0 + threadIdx.x;
    int sum = 0;
    for (size_t base = 0; base < inner; base += tile) {
        const size_t a_col = base + threadIdx.x;
        const size_t b_row = base + threadIdx.y;
        a_tile[threadIdx.y][threadIdx.x] =
            (row < rows && a_col < inner) ? (static_cast<int>(A[row * inner + a_col]) - zero_point_A) : 0;
        b_tile[threadIdx.y][threadIdx.x] =
            (b_row < inner && col < cols) ? (static_cast<int>(B[b_row * cols + col]) - zero_point_B) : 0;
        __syncthreads();
        for (int p = 0; p < tile; ++p) sum += a_tile[threadIdx.y][p] * b_tile[p][threadIdx.x];
        __syncthreads();
    }
    if (row < rows && col < cols) {
        const float scaled = static_cast<float>(sum) * scale_A * scale_B / scale_C;
        // Past ±2^30 the clamp below decides anyway; the bound keeps the conversion defined.
        const float rounded = fminf(fmaxf(rintf(scaled), -1073741824.0f), 1073741824.0f);
        const int shifted = static_cast<int>(rounded) + zero_point_C;
        C[row * cols + col] = static_cast<int8_t>(min(max(shifted, -128), 127));
    }
}

} // namespace

extern "C" void solve(const int8_t *A, const int8_t *B, int8_t *C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
    const size_t rows = M, inner = K, cols = N;
    const size_t tiles = ((rows + tile - 1) / tile) * ((cols + tile - 1) / tile);
    tiled_product<<<dim3(static_cast<unsigned>(tiles)), dim3(tile, tile)>>>(
        A, B, C, rows, inner, cols, scale_A, scale_B, scale_C, zero_point_A, zero_point_B, zero_point_C);
    cudaDeviceSynchronize();
}
