#include "referee/canonical_operands.hpp"
#include "referee/cuda_check.hpp"

#include <algorithm>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace gemm {

namespace {

constexpr int layout_threads = 256;

unsigned layout_blocks(std::size_t work_items) {
    const std::size_t blocks = (work_items + layout_threads - 1) / layout_threads;
    return static_cast<unsigned>(blocks < 1 ? 1 : blocks > 65536 ? 65536 : blocks);
}

// One thread an element of the output, reading its source: the judge's copy runs once per
// call, outside the timed window, so plain strided reads are fast enough.
__global__ void transpose_batches(const float *stored, long long batch, long long rows, long long cols,
                                  float *transposed) {
    const std::size_t per_matrix = static_cast<std::size_t>(rows) * cols, n = per_matrix * batch;
    for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < n;
         e += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t b = e / per_matrix, within = e % per_matrix;
        const std::size_t out_row = within / rows, out_col = within % rows; // out is cols×rows
        transposed[e] = stored[b * per_matrix + out_col * cols + out_row];
    }
}

__global__ void diagonal_batches(const float *diagonal, long long batch, long long n, float *square) {
    const std::size_t per_matrix = static_cast<std::size_t>(n) * n, total = per_matrix * batch;
    for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < total;
         e += std::size_t(gridDim.x) * blockDim.x) {
        const std::size_t b = e / per_matrix, within = e % per_matrix;
        const std::size_t row = within / n, col = within % n;
        square[e] = row == col ? diagonal[b * n + row] : 0.0f;
    }
}

__global__ void count_nonzero(const float *values, std::size_t n, unsigned long long *count) {
    unsigned long long mine = 0;
    for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < n;
         e += std::size_t(gridDim.x) * blockDim.x)
        mine += values[e] != 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xFFFFFFFFu, mine, offset);
    if (threadIdx.x % 32 == 0 && mine) atomicAdd(count, mine);
}

} // namespace

void transpose_on_device(const float *stored, long long batch, long long rows, long long cols, float *transposed) {
    transpose_batches<<<layout_blocks(static_cast<std::size_t>(batch) * rows * cols), layout_threads>>>(
        stored, batch, rows, cols, transposed);
    cuda_check(cudaGetLastError(), "transposing an operand for the checks");
}

void diagonal_on_device(const float *diagonal, long long batch, long long n, float *square) {
    diagonal_batches<<<layout_blocks(static_cast<std::size_t>(batch) * n * n), layout_threads>>>(diagonal, batch, n,
                                                                                                 square);
    cuda_check(cudaGetLastError(), "laying out a diagonal for the checks");
}

long long count_nonzero_on_device(const float *values, std::size_t n) {
    DeviceArray<unsigned long long> count(1);
    cuda_check(cudaMemset(count.data(), 0, sizeof(unsigned long long)), "counting non-zeros");
    count_nonzero<<<layout_blocks(n), layout_threads>>>(values, n, count.data());
    cuda_check(cudaGetLastError(), "counting non-zeros");
    unsigned long long host = 0;
    cuda_check(cudaMemcpy(&host, count.data(), sizeof host, cudaMemcpyDeviceToHost), "counting non-zeros");
    return static_cast<long long>(host);
}

namespace {

// The two 2-byte floats, by overload: rounding to nearest even, and back exactly.
__device__ __half rounded(float v, __half) { return __float2half_rn(v); }
__device__ __nv_bfloat16 rounded(float v, __nv_bfloat16) { return __float2bfloat16_rn(v); }
__device__ float widened(__half h) { return __half2float(h); }
__device__ float widened(__nv_bfloat16 h) { return __bfloat162float(h); }
__device__ float widened(unsigned short bits, __half) { return widened(__ushort_as_half(bits)); }
__device__ float widened(unsigned short bits, __nv_bfloat16) { return widened(__ushort_as_bfloat16(bits)); }

template <typename Half> __global__ void round_to_half(float *values, std::size_t n, Half *packed) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const Half h = rounded(values[i], Half{});
        packed[i] = h;
        values[i] = widened(h);
    }
}

template <typename Half> __global__ void widen_half(const unsigned short *packed, std::size_t n, float *wide) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const unsigned short bits = packed[i];
        wide[i] = bits == 0xFFFFu ? __uint_as_float(0xFFFFFFFFu) : widened(bits, Half{});
    }
}

// Generated values are integers already (`data integers`, in int8's range by the case's own
// check); rint and the clamp only make the packing total.
__global__ void round_to_int8(float *values, std::size_t n, int zero_point, signed char *packed) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x) {
        const int v = static_cast<int>(fminf(fmaxf(rintf(values[i]), -128.0f), 127.0f));
        packed[i] = static_cast<signed char>(v);
        values[i] = static_cast<float>(v - zero_point);
    }
}

__global__ void widen_int8(const signed char *packed, std::size_t n, float *wide) {
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
         i += std::size_t(gridDim.x) * blockDim.x)
        wide[i] = static_cast<float>(packed[i]);
}

unsigned blocks_of(std::size_t n) { return static_cast<unsigned>(std::min<std::size_t>((n + 255) / 256, 65536)); }

} // namespace

void round_to_half_on_device(float *values, std::size_t n, void *packed, bool bfloat16) {
    if (bfloat16)
        round_to_half<<<blocks_of(n), 256>>>(values, n, static_cast<__nv_bfloat16 *>(packed));
    else
        round_to_half<<<blocks_of(n), 256>>>(values, n, static_cast<__half *>(packed));
    cuda_check(cudaGetLastError(), bfloat16 ? "rounding the inputs to BF16" : "rounding the inputs to FP16");
}

void widen_half_on_device(const void *packed, std::size_t n, float *wide, bool bfloat16) {
    const auto *bits = static_cast<const unsigned short *>(packed);
    if (bfloat16)
        widen_half<__nv_bfloat16><<<blocks_of(n), 256>>>(bits, n, wide);
    else
        widen_half<__half><<<blocks_of(n), 256>>>(bits, n, wide);
    cuda_check(cudaGetLastError(), bfloat16 ? "widening the BF16 output" : "widening the FP16 output");
}

void round_to_int8_on_device(float *values, std::size_t n, int zero_point, void *packed) {
    round_to_int8<<<blocks_of(n), 256>>>(values, n, zero_point, static_cast<signed char *>(packed));
    cuda_check(cudaGetLastError(), "packing the inputs as int8");
}

void widen_int8_on_device(const void *packed, std::size_t n, float *wide) {
    widen_int8<<<blocks_of(n), 256>>>(static_cast<const signed char *>(packed), n, wide);
    cuda_check(cudaGetLastError(), "widening the int8 output");
}

} // namespace gemm
