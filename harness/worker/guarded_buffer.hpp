// A device matrix between two guard bands of a known pattern, so a write just before
// or after it is found, and so the solution gets 256-byte-aligned pointers as from
// cudaMalloc.
#pragma once

#include "worker/cuda_check.hpp"

#include <cstdint>
#include <vector>

namespace gemm {

struct GuardDamage {
    long long floats_before = 0; // how far before element 0 the farthest changed guard float lies
    long long floats_after = 0;  // how far past the last element
    bool any() const { return floats_before > 0 || floats_after > 0; }
};

class GuardedBuffer {
  public:
    // 64 KiB each side: a missing store guard writes up to a tile's rows past the end,
    // which should land in the guard, not in a neighbouring allocation.
    static constexpr std::size_t guard_floats = 16384;
    static constexpr unsigned char guard_byte = 0xA5;

    explicit GuardedBuffer(std::size_t elements);
    float *data() const { return storage_.data() + guard_floats; }
    std::size_t size() const { return elements_; }

    void upload(const std::vector<float> &values);
    void copy_from(const float *device_values); // size() elements, device to device
    std::vector<float> download() const;
    void fill(unsigned char byte); // the elements only
    void fill_guards();
    GuardDamage inspect_guards() const;

  private:
    std::size_t elements_;
    DeviceArray<float> storage_;
};

} // namespace gemm
