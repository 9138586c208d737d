// expect: CE
// detail: extern "C"
// solve() without extern "C": the library exports only a C++ (mangled) name.
#include "naive_kernel.cuh"

void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
