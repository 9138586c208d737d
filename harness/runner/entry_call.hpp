// A call of the solution's entry point with the arguments its plan names (entry_plan.hpp),
// whatever its parameter list: libffi builds the call for the C calling convention once, at
// load, so each call only fills in the pointers and the case's dims.
#pragma once

#include "channel/entry_plan.hpp"

#include <ffi.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gemm {

// The device pointers a call hands out: the product's operands and the epilogue's (null where
// the problem has none).
struct EntryOperands {
    const float *A = nullptr, *B = nullptr;
    float *C = nullptr;
    const float *bias = nullptr, *factor = nullptr;
};

class EntryCall {
  public:
    // Throws std::invalid_argument when libffi cannot describe the call.
    EntryCall(void *function, EntryPlan plan);
    EntryCall(const EntryCall &) = delete;
    EntryCall &operator=(const EntryCall &) = delete;
    EntryCall(EntryCall &&) = delete;

    // "" or why the call cannot be made (dims or a scalar missing for an argument).
    std::string operator()(const EntryOperands &operands, const std::vector<long long> &dims,
                           const std::map<std::string, double> &scalars = {});

  private:
    void *function_;
    EntryPlan plan_;
    std::vector<ffi_type *> types_;
    ffi_cif cif_{};
    // Each argument's value in its own slot, made once: a call (inside the referee's stamps)
    // only fills them in.
    std::vector<const void *> pointers_;
    std::vector<std::int32_t> ints_;
    std::vector<std::uint64_t> sizes_;
    std::vector<float> floats_;
    std::vector<void *> values_;
};

} // namespace gemm
