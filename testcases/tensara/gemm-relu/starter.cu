#include <cuda_runtime.h>

// Note: A, W, b, C are device pointers
extern "C" void solution(const float* A, const float* W, const float* b, float* C, size_t B, size_t N, size_t M) {
}
