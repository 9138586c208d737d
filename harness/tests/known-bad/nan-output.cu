// expect: WA
// cases: secret/04-primes
// detail: NaN/Inf
// Correct everywhere but one element, which is 0/0.
#include "naive_kernel.cuh"

__global__ void spoil(float *C, float zero) { C[5] = zero / zero; }

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    spoil<<<1, 1>>>(C, 0.0f);
    cudaDeviceSynchronize();
}
