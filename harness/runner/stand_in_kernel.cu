#include "runner/stand_in_kernel.hpp"

namespace gemm {

namespace {

__device__ unsigned long long globaltimer_ns() {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    return now;
}

// What every GEMM must do, and nothing more: read A and B once (their pages and lines are
// then where a solution's would be), keep every SM busy until busy_ns from the block's
// start (all blocks are resident at once: two of 256 threads a multiprocessor), then write
// C. The sum of what it read decides nothing; it only keeps the reads from being dropped.
__global__ void stand_in(const float *A, std::size_t a_elements, const float *B, std::size_t b_elements, unsigned *C,
                         std::size_t c_elements, unsigned long long busy_ns) {
    const unsigned long long start = globaltimer_ns();
    const std::size_t first = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    float sum = 0;
    for (std::size_t i = first; i < a_elements; i += stride) sum += A[i];
    for (std::size_t i = first; i < b_elements; i += stride) sum += B[i];
    while (globaltimer_ns() - start < busy_ns) {
    }
    const unsigned poison = sum == 1.5e38f ? 0xFFFFFFFEu : 0xFFFFFFFFu; // never 1.5e38 for inputs in range
    for (std::size_t i = first; i < c_elements; i += stride) C[i] = poison;
}

} // namespace

cudaError_t launch_stand_in(const StandInBuffers &b, unsigned long long busy_ns, int multiprocessors) {
    stand_in<<<2 * multiprocessors, 256>>>(b.A, b.a_elements, b.B, b.b_elements, reinterpret_cast<unsigned *>(b.C),
                                           b.c_elements, busy_ns);
    return cudaGetLastError();
}

} // namespace gemm
