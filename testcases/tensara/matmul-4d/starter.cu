#include <cuda_runtime.h>

// Note: A, B, C are device pointers
extern "C" void solution(const float* A, const float* B, float* C, size_t b, size_t i, size_t j, size_t l, size_t k) {
}
