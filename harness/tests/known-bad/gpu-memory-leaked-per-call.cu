// expect: RE
// cases: sample/02-small-explicit secret/04-primes secret/15-around-1000 secret/16-around-2048
// detail: the solution's process holds
// Every call takes all the GPU memory it can still get as scratch and never gives it back (a
// workspace cudaMalloc'd per call without cudaFree), computing C correctly all the while: the
// device is full after the first call, and the referee cannot allocate the next case's
// inputs. The solution's doing, named with the figures, never the judge's JE.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    for (std::size_t bytes = std::size_t(1) << 34; bytes >= (std::size_t(1) << 20);) {
        void *scratch = nullptr;
        if (cudaMalloc(&scratch, bytes) != cudaSuccess) {
            cudaGetLastError();
            bytes /= 2;
        }
    }
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
