#include <cuda_runtime.h>

// Note: A, B, C, output are device pointers
extern "C" void solution(const float* A, const float* B, const float* C, float alpha, float* output, size_t M, size_t N, size_t K) {
}
