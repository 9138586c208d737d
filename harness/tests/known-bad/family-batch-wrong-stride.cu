// expect: WA
// cases: secret/03-primes
// flags: --problem leetgpu/30-batched-matmul
// Every product of the batch multiplies its own A by the first product's B (a B stride of
// 0, as a broadcast would be): the first product is right, the others are not. The judge
// checks each product against its own operands (one projection per product), so the wrong
// ones are WA at their rows, 137 and beyond.
#include "naive_kernel.cuh"

#include <cstddef>

// LeetGPU's names: A is M×K, B is K×N, C is M×N, BATCH of each, one after another.
extern "C" void solve(const float *A, const float *B, float *C, int BATCH, int M, int N, int K) {
    for (int b = 0; b < BATCH; ++b)
        launch_naive(A + (size_t)b * M * K, B, C + (size_t)b * M * N, M, K, N); // B's offset forgotten
    cudaDeviceSynchronize();
}
