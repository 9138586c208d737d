// expect: AC
// cases: sample/02-small-explicit
// Calls cudaDeviceReset() inside solve(), after computing C. The judge's memory belongs
// to the referee, another process, so only the solution's own context goes: the judge
// must neither fail itself nor lose its buffers, and it judges the outputs, which are
// right (each call pays for the reset in its time).
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
    cudaDeviceReset();
}
