// Every mode (suite, stress, sanitize, rank, compare, history) tells what happened
// through these events, as typed values (a case result, the summaries of summaries.hpp),
// and the reporters turn them into the console table, the JSON report, a JUnit file, the
// history and a plot: one set of events, several outputs, as google/benchmark's reporters.
// A mode formats nothing; its notes are sentences about the run ("rank: no score: …").
#pragma once

#include "channel/protocol.hpp"
#include "command_line/reporters/run_context.hpp"
#include "command_line/reporters/summaries.hpp"

#include <string>
#include <vector>

namespace gemm {

class Reporter {
  public:
    virtual ~Reporter() = default;
    // The solution compiled and a GPU is there: which solution, for what, on which GPU.
    virtual void run_started(const RunContext &) {}
    // nvcc failed or the library has no solve(): the message, before any case runs.
    virtual void compile_failed(const RunContext &, const std::string &) {}
    // A line about the run as a whole ("stress: 200 random shapes …: all AC").
    virtual void note(const std::string &) {}
    // No case could run, for one reason said once: the solution's process could not reach
    // solve() (it died or hung while loading: RE), or the judge's processes did not start (JE).
    virtual void start_failed(const RunContext &, Verdict, const std::string &) {}
    virtual void case_skipped(const TestCase &, const std::string &) {}
    // Cases the run did not judge (fail-fast), and why; after the last case judged.
    virtual void cases_not_run(const NotRun &) {}
    virtual void case_finished(const CaseResult &, const TestCase &, const CasePolicy &) {}
    // What a run found beyond its cases (summaries.hpp).
    virtual void no_gpu(const NoGpu &) {}
    virtual void shrunk(const ShrinkFinding &) {}
    virtual void stressed(const StressFinding &) {}
    virtual void profiled(const ProfileFinding &) {}
    virtual void ranked(const RankSummary &) {}
    virtual void compared(const CompareSummary &) {}
    virtual void history_listed(const HistoryList &) {}
    virtual void leaderboards_listed(const Leaderboards &) {}
    virtual void run_finished(const RunContext &, const std::vector<CaseResult> &, int) {}
};

} // namespace gemm
