// expect: WA
// cases: perf/01-cube-4096
// detail: output of timed call 1
// The cheat that used to be timed at 39× cuBLAS: remember A and C from the first call
// of a shape, and on later calls take A as a power-of-two multiple of the A seen then
// (the judge once timed on A·2^e and an unchanged B) and return that power times the
// saved C: a memory-bound scale, no GEMM. Fresh inputs for every call make it wrong.
#include "naive_kernel.cuh"

#include <cmath>

namespace {

__global__ void scale(const float *saved, float factor, float *C, size_t elements) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < elements; i += (size_t)gridDim.x * blockDim.x)
        C[i] = factor * saved[i];
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static float *saved_C = nullptr;
    static float first_a = 0;
    static size_t saved_elements = 0;
    const size_t elements = (size_t)M * K;
    float a0;
    cudaMemcpy(&a0, A, sizeof a0, cudaMemcpyDeviceToHost);
    if (saved_C && saved_elements == elements && first_a != 0) {
        const float factor = std::exp2(std::round(std::log2(std::fabs(a0 / first_a))));
        scale<<<1024, 256>>>(saved_C, factor, C, elements);
    } else {
        launch_naive(A, B, C, M, N, K);
        cudaFree(saved_C);
        cudaMalloc(&saved_C, elements * sizeof(float));
        cudaMemcpy(saved_C, C, elements * sizeof(float), cudaMemcpyDeviceToDevice);
        saved_elements = elements;
        first_a = a0;
    }
    cudaDeviceSynchronize();
}
