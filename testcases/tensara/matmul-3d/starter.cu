#include <cuda_runtime.h>

// Note: A, B, C are device pointers
extern "C" void solution(const float* A, const float* B, float* C, size_t n, size_t m, size_t k, size_t l) {
}
