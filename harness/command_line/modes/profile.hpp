// rank --profile CASE: Nsight Compute on the kernels one call of solve() launches (the
// worker marks each call with an NVTX range "solve", so the judge's own kernels stay out),
// with the clocks left alone (--clock-control none), so its kernel duration can be held
// against the judge's median for the same case.
#pragma once

#include "command_line/modes/session.hpp"

#include <map>
#include <optional>
#include <string>

namespace gemm {

// The metrics asked of ncu, and what the report calls them.
extern const char *const profile_metrics;

struct KernelProfile {
    std::string kernel;     // the longest kernel of the call
    int kernels = 0;        // how many the call launched
    double duration_ms = 0; // all of them together
    double ffma_flop = 0;   // 2 × FFMA + FADD + FMUL thread instructions
    double dram_percent = 0, sm_percent = 0, occupancy_percent = 0;
    double registers = 0, shared_bytes = 0; // per thread, per block (static + dynamic)
};

// ncu's CSV (--csv --page raw: a header row, a units row, one row per kernel), or nothing
// when it holds no kernel.
std::optional<KernelProfile> parse_ncu_csv(const std::string &csv);

// Profiles one call of solve() on the case and tells the reporters, with the judge's
// median from `ranked` beside ncu's duration.
void profile_case(Session &session, const TestCase &tc, const CaseResult &ranked);

} // namespace gemm
