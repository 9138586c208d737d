// expect: WA
// cases: secret/15-around-1000
// detail: output of timed call 1
// Packs B on the first call with a given B pointer and reuses the packed copy for as
// long as the pointer stays the same: a real kernel, but fed the B of an earlier call.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const float *packed_for = nullptr;
    static float *packed = nullptr;
    const size_t b_elements = (size_t)N * K;
    if (B != packed_for) {
        cudaFree(packed);
        cudaMalloc(&packed, b_elements * sizeof(float));
        cudaMemcpy(packed, B, b_elements * sizeof(float), cudaMemcpyDeviceToDevice);
        packed_for = B;
    }
    launch_naive(A, packed, C, M, N, K);
    cudaDeviceSynchronize();
}
