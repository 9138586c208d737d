// expect: RE
// cases: sample/02-small-explicit
// detail: reset the device
// Calls cudaDeviceReset() inside solve(): every allocation, the judge's too, is gone.
// The judge must blame the solution (RE), not fail itself.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
    cudaDeviceReset();
}
