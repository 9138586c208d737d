// expect: WA
// cases: secret/02-primes secret/04-mult64-plus-one
// flags: --problem leetgpu/22-gemm
// detail: outside the FP32 error bound
// LeetGPU #22 asks for C = α·A·B + β·C with C read; this one writes α·A·B and never reads C,
// right only where β = 0. The judge hands C₀ out in C at the start of every call and checks
// against α·P + β·C₀, so with β ≠ 0 nearly every element is off by β·C₀: WA.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

// A is M×K, B is K×N, C is M×N (the site's names; K is the inner dimension).
__global__ void scaled_product_only(const half *A, const half *B, half *C, int M, int N, int K, float alpha) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    float sum = 0.0f;
    for (int p = 0; p < K; ++p) sum += __half2float(A[(size_t)row * K + p]) * __half2float(B[(size_t)p * N + col]);
    C[(size_t)row * N + col] = __float2half(alpha * sum);
}

} // namespace

extern "C" void solve(const half *A, const half *B, half *C, int M, int N, int K, float alpha, float beta) {
    (void)beta;
    const dim3 block(16, 16);
    scaled_product_only<<<dim3((N + 15) / 16, (M + 15) / 16), block>>>(A, B, C, M, N, K, alpha);
    cudaDeviceSynchronize();
}
