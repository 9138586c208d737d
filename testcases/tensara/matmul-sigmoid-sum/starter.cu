#include <cuda_runtime.h>

// Note: A, B, output are device pointers
extern "C" void solution(const float* A, const float* B, float* output, size_t M, size_t N, size_t K) {
}
