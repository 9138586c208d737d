// expect: WA
// cases: secret/04-primes
// detail: 1 floats before the start
// Correct C, plus one float stored just before C[0].
#include "naive_kernel.cuh"

__global__ void underrun(float *C) { C[-1] = 1.0f; }

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    underrun<<<1, 1>>>(C);
    cudaDeviceSynchronize();
}
