// expect: WA
// cases: secret/06-one-batch
// flags: --problem leetgpu/57-fp16-batched-matmul
// LeetGPU #57 computes in FP32 from FP16 inputs; this one accumulates in FP16 (__hfma), whose
// rounding error grows as u₁₆·√K·‖P‖ — at K = 1024 far beyond the FP32 accumulation and the one
// FP16 rounding of the result that the judge's bound allows: WA.
#include <cuda_fp16.h>
#include <cuda_runtime.h>

namespace {

__global__ void half_accumulation(const half *A, const half *B, half *C, int M, int N, int K) {
    const size_t batch = blockIdx.z;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;
    const half *a = A + batch * M * K, *b = B + batch * K * N;
    half sum = __float2half(0.0f);
    for (int p = 0; p < K; ++p) sum = __hfma(a[(size_t)row * K + p], b[(size_t)p * N + col], sum);
    C[batch * M * N + (size_t)row * N + col] = sum;
}

} // namespace

extern "C" void solve(const half *A, const half *B, half *C, int BATCH, int M, int N, int K) {
    const dim3 block(16, 16);
    half_accumulation<<<dim3((N + 15) / 16, (M + 15) / 16, BATCH), block>>>(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
