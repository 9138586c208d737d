// cuBLAS SGEMM (pedantic FP32, as the judge's baseline) called as a solution: judged
// against the baseline runner's cuBLAS it measures what the solution's path costs over
// the baseline's (confinement, its own process), and it is one side of the pair with
// which `compare` is shown to call a 2% change (cublas-sgemm-2pct-more.cu) and to find
// a solution against itself not significant.
#include <cublas_v2.h>
#include <cuda_runtime.h>

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static cublasHandle_t handle = [] {
        cublasHandle_t h;
        cublasCreate(&h);
        cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH);
        return h;
    }();
    const float one = 1.0f, zero = 0.0f;
    // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ.
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K);
    cudaDeviceSynchronize();
}
