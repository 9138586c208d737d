#include <cuda_runtime.h>

// Note: input_a, input_b, output_c are device pointers
extern "C" void solution(const float* input_a, const float* input_b, float* output_c, size_t n) {
}
