#include "referee/guarded_buffer.hpp"

namespace gemm {

std::size_t GuardedBuffer::footprint(std::size_t elements) {
    return ((elements + 2 * guard_floats) * sizeof(float) + 255) / 256 * 256;
}

// Everything here is queued on the legacy stream, in order with the referee's stamps.
void GuardedBuffer::copy_from(const float *device_values) {
    cuda_check(cudaMemcpyAsync(data(), device_values, elements_ * sizeof(float), cudaMemcpyDeviceToDevice, nullptr),
               "copy");
}

void GuardedBuffer::fill(unsigned char byte) {
    cuda_check(cudaMemsetAsync(data(), byte, elements_ * sizeof(float), nullptr), "cudaMemset");
}

void GuardedBuffer::fill_guards() {
    const std::size_t bytes = guard_floats * sizeof(float);
    cuda_check(cudaMemsetAsync(storage_, guard_byte, bytes, nullptr), "guard fill");
    cuda_check(cudaMemsetAsync(data() + elements_, guard_byte, bytes, nullptr), "guard fill");
}

} // namespace gemm
