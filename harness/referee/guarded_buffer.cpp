#include "referee/guarded_buffer.hpp"

#include <cstring>

namespace gemm {

std::size_t GuardedBuffer::footprint(std::size_t elements) {
    return ((elements + 2 * guard_floats) * sizeof(float) + 255) / 256 * 256;
}

void GuardedBuffer::upload(const std::vector<float> &values) {
    cuda_check(cudaMemcpy(data(), values.data(), elements_ * sizeof(float), cudaMemcpyHostToDevice), "upload");
}

void GuardedBuffer::copy_from(const float *device_values) {
    cuda_check(cudaMemcpyAsync(data(), device_values, elements_ * sizeof(float), cudaMemcpyDeviceToDevice, nullptr),
               "copy");
}

std::vector<float> GuardedBuffer::download() const {
    std::vector<float> values(elements_);
    cuda_check(cudaMemcpy(values.data(), data(), elements_ * sizeof(float), cudaMemcpyDeviceToHost), "download");
    return values;
}

void GuardedBuffer::fill(unsigned char byte) {
    cuda_check(cudaMemset(data(), byte, elements_ * sizeof(float)), "cudaMemset");
}

void GuardedBuffer::fill_guards() {
    const std::size_t bytes = guard_floats * sizeof(float);
    cuda_check(cudaMemset(storage_, guard_byte, bytes), "guard fill");
    cuda_check(cudaMemset(data() + elements_, guard_byte, bytes), "guard fill");
}

GuardDamage GuardedBuffer::inspect_guards() const {
    std::vector<unsigned char> before(guard_floats * sizeof(float)), after(before.size());
    cuda_check(cudaMemcpy(before.data(), storage_, before.size(), cudaMemcpyDeviceToHost), "guard read");
    cuda_check(cudaMemcpy(after.data(), data() + elements_, after.size(), cudaMemcpyDeviceToHost), "guard read");
    GuardDamage damage;
    for (std::size_t i = 0; i < before.size(); ++i)
        if (before[i] != guard_byte) {
            damage.floats_before = static_cast<long long>(guard_floats - i / sizeof(float));
            break;
        }
    for (std::size_t i = after.size(); i-- > 0;)
        if (after[i] != guard_byte) {
            damage.floats_after = static_cast<long long>(i / sizeof(float) + 1);
            break;
        }
    return damage;
}

} // namespace gemm
