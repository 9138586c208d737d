// expect: WA
// cases: secret/07-half-steps
// flags: --problem leetgpu/32-int8-quantized-matmul
// detail: rounding half away from zero
// LeetGPU #32 rounds the scaled sum half to even (torch.round, rintf); this one rounds half away
// from zero (roundf). They differ only where the scaled sum lands exactly half-way, which the
// case's scale of 1/128 makes common: an off-by-one WA, explained by the judge as this slip.
#include <cstdint>
#include <cuda_runtime.h>

namespace {

__global__ void requantized_product(const int8_t *A, const int8_t *B, int8_t *C, int M, int N, int K, float scale_A,
                                    float scale_B, float scale_C, int zero_point_A, int zero_point_B,
                                    int zero_point_C) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    int sum = 0;
    for (int p = 0; p < K; ++p)
        sum += (int(A[(size_t)row * K + p]) - zero_point_A) * (int(B[(size_t)p * N + col]) - zero_point_B);
    const float scaled = float(sum) * scale_A * scale_B / scale_C;
    const int shifted = int(roundf(fminf(fmaxf(scaled, -1e9f), 1e9f))) + zero_point_C;
    C[(size_t)row * N + col] = int8_t(min(max(shifted, -128), 127));
}

} // namespace

extern "C" void solve(const int8_t *A, const int8_t *B, int8_t *C, int M, int N, int K, float scale_A, float scale_B,
                      float scale_C, int zero_point_A, int zero_point_B, int zero_point_C) {
    const dim3 threads(16, 16), blocks((N + 15) / 16, (M + 15) / 16);
    requantized_product<<<blocks, threads>>>(A, B, C, M, N, K, scale_A, scale_B, scale_C, zero_point_A, zero_point_B,
                                             zero_point_C);
}
