// The GPU memory the solution gets: one CUDA allocation of the referee's, exportable
// as a file descriptor, which the referee hands to a runner (and to nobody else). A,
// B and C live in it between guard bands (guarded_buffer.hpp); everything else the
// referee holds (pristine inputs, the reference, the snapshot of C it checks) is in
// allocations no other process can map.
#pragma once

#include "cuda_driver/mapped_allocation.hpp"

#include <cuda.h>

#include <cstddef>

namespace gemm {

class SharedArena {
  public:
    SharedArena() = default;
    SharedArena(const SharedArena &) = delete;
    SharedArena &operator=(const SharedArena &) = delete;

    // Makes room for `bytes`; true when that needed a new allocation (which the runners
    // must then map again).
    bool reserve(std::size_t bytes);
    unsigned char *data() const { return reinterpret_cast<unsigned char *>(mapping_.base()); }
    std::size_t size() const { return mapping_.bytes(); }
    // Frees the allocation (a runner's mapping keeps it alive until that runner unmaps or
    // exits); the next reserve makes a new one.
    void release();
    // A new descriptor of the allocation, for one runner; the caller closes it after sending.
    int export_descriptor() const;

  private:
    MappedAllocation mapping_;
};

} // namespace gemm
