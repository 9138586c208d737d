// expect: WA
// cases: secret/08-sums-past-2-24
// flags: --problem leetgpu/32-int8-quantized-matmul
// detail: as with the sum kept in FP32
// LeetGPU #32 sums the int8 products exactly (int32); this one keeps the sum in FP32, which is
// exact only while the partial sums stay below 2^24. Zero points of -128 make the case's sums
// reach about 66 million: some elements come out one off, and the judge explains the first by
// redoing its sum in FP32.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

__global__ void requantized_product(const int8_t *A, const int8_t *B, int8_t *C, int M, int N, int K, float scale_A,
                                    float scale_B, float scale_C, int zero_point_A, int zero_point_B,
                                    int zero_point_C) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    float sum = 0; // the slip: int8 products summed in FP32
    for (int p = 0; p < K; ++p)
        sum += float(int(A[(size_t)row * K + p]) - zero_point_A) * float(int(B[(size_t)p * N + col]) - zero_point_B);
    const float scaled = sum * scale_A * scale_B / scale_C;
    const int shifted = int(rintf(fminf(fmaxf(scaled, -1e9f), 1e9f))) + zero_point_C;
    C[(size_t)row * N + col] = int8_t(min(max(shifted, -128), 127));
}

} // namespace

extern "C" void solve(const int8_t *A, const int8_t *B, int8_t *C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
    const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16);
    requantized_product<<<blocks, threads>>>(A, B, C, M, N, K, scale_A, scale_B, scale_C, zero_point_A, zero_point_B,
                                             zero_point_C);
}
