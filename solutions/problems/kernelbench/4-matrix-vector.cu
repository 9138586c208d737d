// Straightforward solution of kernelbench/4-matrix-vector
// (KernelBench: Matrix vector multiplication).
//
// Technique: one warp per row of the matrix; its 32 lanes stride along the row (coalesced
// loads), each keeping an FP32 partial sum, then a shuffle reduction gives the row's dot
// product. Offsets are 64-bit.
// Not yet measured.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int warps_per_block = 8;

__global__ void row_dot_products(const float *matrix, const float *vector, float *result, size_t rows, size_t length) {
    const size_t row = static_cast<size_t>(blockIdx.x) * warps_per_block + threadIdx.x / 32;
    const unsigned lane = threadIdx.x % 32;
    if (row >= rows) return;
    const float *row_start = matrix + row * length;
    float sum = 0.0f;
    for (size_t p = lane; p < length; p += 32) sum += row_start[p] * vector[p];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) result[row] = sum;
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int K) {
    const size_t rows = M;
    const size_t blocks = (rows + warps_per_block - 1) / warps_per_block;
    row_dot_products<<<static_cast<unsigned>(blocks), warps_per_block * 32>>>(A, B, C, rows, K);
    cudaDeviceSynchronize();
}
