// rank --profile CASE: Nsight Compute on the kernels one call of solve() launches (the
// worker marks each call with an NVTX range "solve", so the judge's own kernels stay out),
// with the clocks left alone (--clock-control none), so its kernel duration can be held
// against the judge's median for the same case.
#pragma once

#include "command_line/modes/session.hpp"
#include "command_line/reporters/summaries.hpp"

#include <map>
#include <optional>
#include <string>

namespace gemm {

// The metrics asked of ncu, and what the report calls them.
extern const char *const profile_metrics;

// ncu's CSV (--csv --page raw: a header row, a units row, one row per kernel), or nothing
// when it holds no kernel.
std::optional<KernelProfile> parse_ncu_csv(const std::string &csv);

// Profiles one call of solve() on the case and tells the reporters, with the judge's
// median from `ranked` beside ncu's duration.
void profile_case(Session &session, const TestCase &tc, const CaseResult &ranked);

} // namespace gemm
