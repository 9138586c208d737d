// expect: WA
// cases: secret/04-primes
// detail: modified A
// Correct C, but A is used as scratch space afterwards.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    cudaMemset(const_cast<float *>(A), 0, sizeof(float));
    cudaDeviceSynchronize();
}
