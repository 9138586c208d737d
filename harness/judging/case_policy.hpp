// Where the judge decides, once, how each case is run: timed or not, with the cuBLAS
// baseline or not, whether a failure may be shrunk and its data shown. The decision
// travels with the case to the worker (channel/protocol.hpp), which reads no category.
#pragma once

#include "channel/protocol.hpp"
#include "testcases/testcase.hpp"

#include <string>

namespace gemm {

// Seconds of timed calls for a case timed for correctness alone (not perf, not rank, not
// against cuBLAS) when --time-budget is not given.
constexpr double correctness_budget_s = 0.1;
// … and at most this many kept calls: a call of a few µs fills 0.1 s only after hundreds of
// calls, each through the path and verified, for a time that is under the run's resolution
// anyway; 30 fresh, verified calls still catch an answer kept from one call to the next
// (what it saves: docs/perf-notes.md, "Fail fast").
constexpr int correctness_max_samples = 30;

// What the command line says about how every case runs.
struct CaseRunOptions {
    std::string baseline = "perf";  // --baseline: which cases cuBLAS is timed on (none, perf, all)
    std::string precision = "fp32"; // --precision: the arithmetic the bounds admit
    double time_budget_s = 0.3;     // --time-budget: the perf and rank cases', and every case's when given
    bool time_budget_given = false; // else the other cases get correctness_budget_s
    bool reveal = false;            // --reveal: print the data of failing secret cases too
    bool shrink = true;             // --no-shrink clears it
    // --scratch-limit: GiB the solution's process may write to its folder; past it RE
    // (judging/os/runner_scratch.hpp).
    double scratch_limit_gib = 1;
};

// The suite's policy for one case, from its category and the command line.
CasePolicy policy_for(const TestCase &tc, const CaseRunOptions &options);

// The same case checked once and not timed: shrinking, stress and sanitizer runs.
CasePolicy untimed(CasePolicy policy);

} // namespace gemm
