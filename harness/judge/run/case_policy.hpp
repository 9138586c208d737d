// Where the judge decides, once, how each case is run: timed or not, with the cuBLAS
// baseline or not, whether a failure may be shrunk and its data shown. The decision
// travels with the case to the worker (channel/protocol.hpp), which reads no category.
#pragma once

#include "channel/protocol.hpp"
#include "judge/options/cli.hpp"

namespace gemm {

// Seconds of timed calls for a case timed for correctness alone (not perf, not rank, not
// against cuBLAS) when --time-budget is not given.
constexpr double correctness_budget_s = 0.1;

// The suite's policy for one case, from its category and the command line.
CasePolicy policy_for(const TestCase &tc, const JudgeOptions &options);

// The same case checked once and not timed: shrinking, stress and sanitizer runs.
CasePolicy untimed(CasePolicy policy);

} // namespace gemm
