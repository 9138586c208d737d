// After a call: A and B against the referee's pristine copies, and every guard band
// around A, B and C, in two kernels and one read back (a call's check, not six).
#pragma once

#include "referee/guarded_buffer.hpp"
#include "verification/check.hpp"

namespace gemm {

class IntegrityWorkspace {
  public:
    IntegrityWorkspace();
    IntegrityCheck check(const GuardedBuffer &A, const float *pristine_A, const GuardedBuffer &B,
                         const float *pristine_B, const GuardedBuffer &C);
    // One more input (an epilogue's bias or factor) against its copy, with its guard bands.
    bool modified(const GuardedBuffer &input, const float *pristine);

  private:
    DeviceArray<unsigned long long> tally_;
};

} // namespace gemm
