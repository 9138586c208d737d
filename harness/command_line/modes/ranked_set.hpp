// The ranked set and how its timings are repeated: the perf and rank cases (at least 8
// shapes, odd and skinny ones among them, testcases/README.md), timed in rounds until
// every shape's spread is below a target or a time budget is spent, the samples of all
// rounds pooled per shape.
#pragma once

#include "command_line/modes/session.hpp"
#include "command_line/options/cli.hpp"
#include "measurement/significance.hpp"
#include "measurement/stopping_rule.hpp"
#include "testcases/testcase.hpp"
#include "verification/case_result.hpp"

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

std::vector<TestCase> ranked_cases(const JudgeOptions &options);

// The pooled samples of one shape for one side (a solution, or cuBLAS).
struct PooledTiming {
    std::vector<double> samples_ms;     // every round's, in order
    std::vector<double> raw_samples_ms; // the same before each round's empty call was taken off
    Rounds rounds_ms;                   // the same calls round by round: how far the rounds agree
    EmptyCall empty_call;               // the largest of the rounds' (each round takes off its own), with the widest
                                        // move of the path into the solution's process of any round
    int sm_clock_mhz = 0;
    // Every round's own events call by call, beside samples_ms.
    std::vector<double> own_events_samples_ms;
    void add(const TimedRun &run);
    TimedRun timed_run() const;
    double spread() const; // IQR/median of the pooled samples
};

// How the rounds ended.
struct RoundsRun {
    int rounds = 0;
    double worst_spread = 1;                // the largest of the shapes' spreads after the last round
    bool budget_spent = false;              // the rule's budget ran out before it was met
    std::optional<std::size_t> failed_case; // the case whose timing stopped the rounds
};

// The rounds loop of rank and compare: every case in turn, round after round, until `rule`
// (measurement/stopping_rule.hpp: a SpreadRule) is satisfied. `time_case(index)` times case `index` on every side
// (rank: the solution with cuBLAS; compare: old, then new) and returns its worst pooled spread, or nullopt when the
// case failed, which stops the rounds at once. `mode` names the status line.
RoundsRun run_rounds(const std::vector<TestCase> &cases, const StoppingRule &rule, const Progress &progress,
                     const std::string &mode, const std::function<std::optional<double>(std::size_t index)> &time_case);

} // namespace gemm
