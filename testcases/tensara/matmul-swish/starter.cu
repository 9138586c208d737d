#include <cuda_runtime.h>

// Note: input_matrix, weight_matrix, bias, output are device pointers
extern "C" void solution(const float* input_matrix, const float* weight_matrix, const float* bias, const float scaling_factor, float* output, size_t batch_size, size_t in_features, size_t out_features) {
}
