// A device matrix between two guard bands of a known pattern, so a write just before
// or after it is found, and so the solution gets 256-byte-aligned pointers as from
// cudaMalloc. The storage is the referee's shared arena (shared_arena.hpp): the view
// owns nothing. integrity_check.hpp reads the guards back.
#pragma once

#include "referee/cuda_check.hpp"

#include <cstdint>
#include <vector>

namespace gemm {

class GuardedBuffer {
  public:
    // 64 KiB each side: a missing store guard writes up to a tile's rows past the end,
    // which should land in the guard, not in a neighbouring allocation.
    static constexpr std::size_t guard_floats = 16384;
    static constexpr unsigned char guard_byte = 0xA5;

    // Bytes a matrix of `elements` takes with its guards, rounded to 256.
    static std::size_t footprint(std::size_t elements);
    // The matrix starts guard_floats after `storage`.
    GuardedBuffer(float *storage, std::size_t elements) : elements_(elements), storage_(storage) {}
    float *data() const { return storage_ + guard_floats; }
    std::size_t size() const { return elements_; }

    void copy_from(const float *device_values); // size() elements, device to device, on the legacy stream
    void fill(unsigned char byte);              // the elements only
    void fill_guards();

  private:
    std::size_t elements_;
    float *storage_;
};

} // namespace gemm
