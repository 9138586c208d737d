// expect: WA
// cases: secret/04-primes
// detail: output of timed call 1
// Computes the first call, then hands back the output of the call before: no GEMM,
// a memory-bound copy. Every call's inputs are fresh, so the replay is wrong.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static float *previous = nullptr;
    static size_t previous_elements = 0;
    const size_t elements = (size_t)M * K;
    if (previous && previous_elements == elements) {
        cudaMemcpy(C, previous, elements * sizeof(float), cudaMemcpyDeviceToDevice);
    } else {
        launch_naive(A, B, C, M, N, K);
        cudaFree(previous);
        cudaMalloc(&previous, elements * sizeof(float));
        previous_elements = elements;
        cudaMemcpy(previous, C, elements * sizeof(float), cudaMemcpyDeviceToDevice);
    }
    cudaDeviceSynchronize();
}
