#include "runner/baseline_epilogue.hpp"

namespace gemm {

namespace {

constexpr int epilogue_threads = 256;

__global__ void epilogue_elementwise(const float *product, float *C, const float *bias, const float *factor,
                                     Epilogue epilogue, long long M, long long K) {
    const long long n = M * K;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x)
        C[i] = through_steps<float>(product[i], epilogue, bias ? bias[i % K] : 0.0f, factor ? factor[i] : 0.0f);
}

// Each block's terms summed in shared memory, then one atomicAdd per block.
__global__ void epilogue_sum(const float *product, float *C, const float *bias, const float *factor, Epilogue epilogue,
                             long long M, long long K) {
    __shared__ float partial[epilogue_threads];
    const long long n = M * K;
    float sum = 0;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x)
        sum += through_steps<float>(product[i], epilogue, bias ? bias[i % K] : 0.0f, factor ? factor[i] : 0.0f);
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int width = epilogue_threads / 2; width > 0; width /= 2) {
        if (threadIdx.x < width) partial[threadIdx.x] += partial[threadIdx.x + width];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(C, partial[0]);
}

} // namespace

cudaError_t apply_baseline_epilogue(const float *product, float *C, const float *bias, const float *factor,
                                    const Epilogue &epilogue, long long M, long long K) {
    const long long n = M * K;
    const unsigned blocks = static_cast<unsigned>(n / epilogue_threads + 1 < 4096 ? n / epilogue_threads + 1 : 4096);
    if (epilogue.sums())
        epilogue_sum<<<blocks, epilogue_threads>>>(product, C, bias, factor, epilogue, M, K);
    else
        epilogue_elementwise<<<blocks, epilogue_threads>>>(product, C, bias, factor, epilogue, M, K);
    return cudaGetLastError();
}

} // namespace gemm
