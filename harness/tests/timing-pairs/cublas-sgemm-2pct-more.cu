// cublas-sgemm.cu plus 2% more of the same work: after the whole product, the first
// M/50 rows of C are computed again (the same values, so it stays AC). `compare` of
// this against cublas-sgemm.cu must call the difference; how large it comes out at each
// shape depends on how cuBLAS runs the 2% strip (a short M is a different kernel).
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
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K);
    const int strip = (M + 49) / 50;
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, strip, N, &one, B, K, A, N, &zero, C, K);
    cudaDeviceSynchronize();
}
