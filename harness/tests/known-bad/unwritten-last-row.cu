// expect: WA
// cases: secret/04-primes
// detail: never written
// An off-by-one in the grid: the last row of C is never computed.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M - 1, N, K);
    cudaDeviceSynchronize();
}
