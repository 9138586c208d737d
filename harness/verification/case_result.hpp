// What one testcase produced: the data every later stage (supervisor, report) reads.
#pragma once

#include "common/device.hpp"
#include "measurement/timed_run.hpp"
#include "verification/check.hpp"
#include "verification/referee_facts.hpp"
#include "verification/verdict.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm {

// Wall time of the worker's phases for one case, in seconds: what the judge itself
// costs next to the kernel (generate: inputs on the GPU; reference: FP64 GEMMs;
// solve: the checked call; verify: every check of every call; timing: the timed calls
// themselves, L2 flushes included; baseline: cuBLAS's timed calls).
struct PhaseTimes {
    double generate = 0, reference = 0, solve = 0, verify = 0, timing = 0, baseline = 0;
};

// How the outputs of a case were verified.
struct Verification {
    int calls = 0;                                    // calls of solve() whose output was verified (every call)
    int full_checks = 0;                              // against the full FP64 reference, element by element
    int projected_checks = 0;                         // by Freivalds projections and sampled elements
    int projection_vectors = 0, sampled_elements = 0; // per projected check
};

// "18 calls: 1 against the full FP64 reference, 17 by 2 Freivalds projections and
// 1024 sampled elements each".
std::string describe(const Verification &v);

struct CaseResult {
    std::string name;
    int M = 0, N = 0, K = 0;
    long long batch = 1; // products of M×N×K in the case (a batched problem's)
    Verdict verdict = Verdict::JE;
    std::string detail;
    std::optional<OutputCheck> check;
    std::optional<TimedRun> timing;
    std::optional<TimedRun> baseline; // cuBLAS SGEMM on the same inputs, same protocol
    RefereeFacts facts;               // what the referee saw; verdict and detail are decided from it
    std::string reference_method;
    bool failed_in_timed_calls = false; // right on the checked call, wrong on a later one
    bool runner_lost = false;           // RE: the solution's process was gone (the judge says how it ended)
    int failed_call = 0;                // the call of solve() it was gone during, 0 when between calls
    PhaseTimes phases;
    Verification verification;
    std::string output_tail; // the solution's stdout/stderr, bounded, filled by the supervisor
    double wall_seconds = 0;
};

} // namespace gemm
