// Straightforward solution of kernelbench/12-diagonal-matmul
// (KernelBench: Matmul with diagonal matrices).
//
// Technique: one multiply per output element, C[i][j] = d[i]·B[i][j], in a grid-stride loop
// over the flattened output with 64-bit indices: consecutive threads read and write
// consecutive elements.
// Not yet measured.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

__global__ void scale_rows(const float *diagonal, const float *B, float *C, size_t rows, size_t cols) {
    const size_t count = rows * cols;
    const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for (size_t e = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count; e += stride)
        C[e] = diagonal[e / cols] * B[e];
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int N, int M) {
    const size_t count = static_cast<size_t>(N) * M;
    const size_t blocks = count < 65536 * 256 ? (count + 255) / 256 : 65536;
    scale_rows<<<static_cast<unsigned>(blocks), 256>>>(A, B, C, N, M);
    cudaDeviceSynchronize();
}
