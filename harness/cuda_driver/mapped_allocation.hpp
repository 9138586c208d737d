// One allocation's handle mapped at addresses of this process, readable and writable by
// device 0, and undone in the reverse order: the referee's arena (it creates and exports
// the allocation) and the runner's view of it (it imports the descriptor) are both one.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <string>

namespace gemm {

class MappedAllocation {
  public:
    MappedAllocation() = default;
    ~MappedAllocation() { reset(); }
    MappedAllocation(const MappedAllocation &) = delete;
    MappedAllocation &operator=(const MappedAllocation &) = delete;

    // Takes `handle`, which is released whatever happens; maps its `bytes` at fresh
    // addresses and grants device 0 access. "" or the step that failed, in the driver's
    // words ("mapping: out of memory"); on failure nothing is held.
    std::string map(CUmemGenericAllocationHandle handle, std::size_t bytes);
    // Unmaps, frees the addresses and releases the handle; nothing when nothing is held.
    void reset();

    CUdeviceptr base() const { return base_; }
    std::size_t bytes() const { return bytes_; }
    CUmemGenericAllocationHandle handle() const { return handle_; }

  private:
    CUdeviceptr base_ = 0;
    std::size_t bytes_ = 0;
    CUmemGenericAllocationHandle handle_ = 0;
};

} // namespace gemm
