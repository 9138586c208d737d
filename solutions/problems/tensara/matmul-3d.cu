// Straightforward solution of tensara/matmul-3d (Tensara: 3D Tensor-Matrix Multiplication).
//
// The n slices of A share B, so the product is one matrix of n·m rows times B: one GEMM.
// Technique: the ladder's rung 4 (solutions/04-register-tile-2d.cu) with 64-bit sizes: a
// 128×128 tile of C per block of 256 threads, the inner dimension cut into 8-deep slices
// staged through shared memory (zero-filled past the edges), each thread an 8×8 block of FP32
// sums in registers fed by an outer product per step. The tiles are numbered along blockIdx.x
// and every offset is 64-bit, so any size the problem allows fits (C of 2^31 elements included).
// Changed from the first version (one thread per element, 16×16 tiles): that one ran Tensara's
// perf shape (32×4096×4096×4096, 4.4 TFLOP) at 6.3 TFLOP/s, 0.70 s a call, and the default
// suite took 10.1–10.9 s against the 10 s asked. Predicted: rung 4's ≈ 21 TFLOP/s, ≈ 0.21 s a
// call, the suite ≈ 5 s. Not yet measured.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int tile_rows = 128;
constexpr int tile_cols = 128;
constexpr int slice = 8;
constexpr int per_thread = 8; // an 8×8 block of C per thread
constexpr int threads = (tile_rows / per_thread) * (tile_cols / per_thread);
constexpr int loads_per_thread = tile_rows * slice / threads;

__global__ void __launch_bounds__(threads)
    register_tiled_product(const float *A, const float *B, float *C, size_t rows, size_t inner, size_t cols) {
    __shared__ float a_slice[tile_rows][slice];
    __shared__ float b_slice[slice][tile_cols];
    const int t = threadIdx.x;
    const size_t column_tiles = (cols + tile_cols - 1) / tile_cols;
    const size_t row0 = blockIdx.x / column_tiles * tile_rows;
    const size_t col0 = blockIdx.x % column_tiles * tile_cols;
    const int my_row = (t / (tile_cols / per_thread)) * per_thread;
    const int my_col = (t % (tile_cols / per_thread)) * per_thread;

    float sum[per_thread][per_thread] = {};
    float a_reg[per_thread], b_reg[per_thread];
    for (size_t base = 0; base < inner; base += slice) {
#pragma unroll
        for (int l = 0; l < loads_per_thread; ++l) {
            const int e = t + l * threads; // consecutive threads → consecutive addresses
            const size_t a_row = row0 + e / slice, a_inner = base + e % slice;
            const size_t b_inner = base + e / tile_cols, b_col = col0 + e % tile_cols;
            a_slice[e / slice][e % slice] = (a_row < rows && a_inner < inner) ? A[a_row * inner + a_inner] : 0.0f;
            b_slice[e / tile_cols][e % tile_cols] =
                (b_inner < inner && b_col < cols) ? B[b_inner * cols + b_col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < slice; ++p) {
#pragma unroll
            for (int i = 0; i < per_thread; ++i) a_reg[i] = a_slice[my_row + i][p];
#pragma unroll
            for (int j = 0; j < per_thread; ++j) b_reg[j] = b_slice[p][my_col + j];
#pragma unroll
            for (int i = 0; i < per_thread; ++i)
#pragma unroll
                for (int j = 0; j < per_thread; ++j) sum[i][j] += a_reg[i] * b_reg[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < per_thread; ++i) {
        const size_t c_row = row0 + my_row + i;
#pragma unroll
        for (int j = 0; j < per_thread; ++j) {
            const size_t c_col = col0 + my_col + j;
            if (c_row < rows && c_col < cols) C[c_row * cols + c_col] = sum[i][j];
        }
    }
}

} // namespace

extern "C" void solution(const float *A, const float *B, float *C, size_t n, size_t m, size_t k, size_t l) {
    const size_t rows = n * m, inner = k, cols = l;
    const size_t tiles = ((rows + tile_rows - 1) / tile_rows) * ((cols + tile_cols - 1) / tile_cols);
    register_tiled_product<<<dim3(static_cast<unsigned>(tiles)), dim3(threads)>>>(A, B, C, rows, inner, cols);
    cudaDeviceSynchronize();
}
