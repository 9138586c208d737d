// expect: RE
// cases: sample/02-small-explicit secret/04-primes secret/15-around-1000 secret/16-around-2048
// detail: the solution's process holds
// Every call takes 24 GB of GPU memory as scratch and never gives it back (a workspace
// cudaMalloc'd per call without cudaFree), computing C correctly all the while: after a few
// calls the device is full and the referee cannot allocate the next case. The solution's
// doing, named with the figures, never the judge's JE.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    void *scratch = nullptr;
    if (cudaMalloc(&scratch, std::size_t(24) << 30) != cudaSuccess) cudaGetLastError();
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
