// expect: WA
// cases: secret/06-mult128-plus-one
// flags: --problem tensara/gemm-multiply-leakyrelu
// detail: normwise error
// cuBLAS SGEMM with TF32 tensor cores allowed, then the problem's two steps (× the factor
// matrix, LeakyReLU) in FP32. Every element may stay within its carried elementwise bound,
// but the epilogue's normwise test (the product's FP32 tolerance times the steps' largest
// slope) sees the 10-bit mantissas: WA, as for the plain product.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>

namespace {

__global__ void multiply_leaky(float *out, const float *factor, float slope, size_t n) {
    const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    const float x = out[i] * factor[i];
    out[i] = x > 0.0f ? x : slope * x;
}

} // namespace

extern "C" void solution(const float *A, const float *B, const float *C, float alpha, float *output, size_t M, size_t N,
                         size_t K) {
    static cublasHandle_t handle = [] {
        cublasHandle_t h;
        cublasCreate(&h);
        cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
        return h;
    }();
    // Tensara's A is M×K and B K×N: row-major output = cuBLAS's column-major Bᵀ·Aᵀ.
    const float one = 1.0f, zero = 0.0f;
    const int m = static_cast<int>(M), n = static_cast<int>(N), k = static_cast<int>(K);
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &zero, output, n);
    const size_t elements = M * N;
    multiply_leaky<<<static_cast<unsigned>((elements + 255) / 256), 256>>>(output, C, alpha, elements);
    cudaDeviceSynchronize();
}
