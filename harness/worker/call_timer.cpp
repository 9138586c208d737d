#include "worker/call_timer.hpp"

namespace gemm {

CallTimer::CallTimer(std::size_t l2_bytes) : flush_buffer_(2 * l2_bytes) {
    cuda_check(cudaEventCreate(&start_), "cudaEventCreate");
    cuda_check(cudaEventCreate(&stop_), "cudaEventCreate");
}

CallTimer::~CallTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
}

void CallTimer::flush_l2() {
    cuda_check(cudaMemsetAsync(flush_buffer_.data(), 0, flush_buffer_.size(), 0), "L2 flush");
}

} // namespace gemm
