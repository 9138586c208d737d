// expect: WA
// cases: secret/04-primes secret/06-mult32-plus-one
// flags: --problem tensara/gemm-relu
// detail: outside the FP32 error bound
// A right product, then the two steps in the wrong order: max(0, x) + b instead of
// max(0, x + b). Wherever the product is negative and the bias positive, or the product
// positive and the sum negative, the element is off by up to |b|; the judge carries the FP64
// product through the problem's own steps, so those elements are far outside their bound.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

// W is stored with one row per output column (Tensara's nn.Linear weight).
__global__ void relu_then_bias(const float *A, const float *W, const float *bias, float *C, size_t rows, size_t inner,
                               size_t cols) {
    const size_t row = blockIdx.y * static_cast<size_t>(blockDim.y) + threadIdx.y;
    const size_t col = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (row >= rows || col >= cols) return;
    float sum = 0.0f;
    for (size_t p = 0; p < inner; ++p) sum += A[row * inner + p] * W[col * inner + p];
    C[row * cols + col] = fmaxf(sum, 0.0f) + bias[col];
}

} // namespace

extern "C" void solution(const float *A, const float *W, const float *b, float *C, size_t B, size_t N, size_t M) {
    const dim3 block(16, 16);
    const dim3 grid(static_cast<unsigned>((M + 15) / 16), static_cast<unsigned>((B + 15) / 16));
    relu_then_bias<<<grid, block>>>(A, W, b, C, B, N, M);
    cudaDeviceSynchronize();
}
