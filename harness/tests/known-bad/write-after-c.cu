// expect: WA
// cases: secret/04-primes
// detail: 1 floats after the end
// Correct C, plus one float stored just past its end.
#include "naive_kernel.cuh"

__global__ void overrun(float *C, size_t elements) { C[elements] = 1.0f; }

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    overrun<<<1, 1>>>(C, (size_t)M * K);
    cudaDeviceSynchronize();
}
