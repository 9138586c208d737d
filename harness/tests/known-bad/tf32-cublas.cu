// expect: WA
// cases: secret/15-around-1000
// detail: precision below FP32
// cuBLAS SGEMM with TF32 tensor cores allowed: 10-bit mantissas in the products, so
// the normwise error is far above what any FP32 summation order gives.
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static cublasHandle_t handle = [] {
        cublasHandle_t h;
        cublasCreate(&h);
        cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH);
        return h;
    }();
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K);
    cudaDeviceSynchronize();
}
