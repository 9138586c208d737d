// Several reporters fed as one: the modes tell one Reporter, and each output hears it.
#pragma once

#include "command_line/reporters/reporter.hpp"

#include <memory>
#include <vector>

namespace gemm {

// Forwards every event to each reporter it holds. When a reporter cannot
// write its file, the others still run; then run_finished throws SetupError naming every
// file that failed (exit status 7).
class Reporters : public Reporter {
  public:
    void add(std::unique_ptr<Reporter> reporter) { all_.push_back(std::move(reporter)); }
    void run_started(const RunContext &run) override;
    void compile_failed(const RunContext &run, const std::string &message) override;
    void note(const std::string &text) override;
    void start_failed(const RunContext &run, Verdict verdict, const std::string &why) override;
    void case_skipped(const TestCase &tc, const std::string &why) override;
    void cases_not_run(const NotRun &not_run) override;
    void case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) override;
    void no_gpu(const NoGpu &x) override;
    void shrunk(const ShrinkFinding &x) override;
    void stressed(const StressFinding &x) override;
    void profiled(const ProfileFinding &x) override;
    void ranked(const RankSummary &x) override;
    void compared(const CompareSummary &x) override;
    void history_listed(const HistoryList &x) override;
    void leaderboards_listed(const Leaderboards &x) override;
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::vector<std::unique_ptr<Reporter>> all_;
};

} // namespace gemm
