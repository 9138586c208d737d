#pragma once

#include "command_line/reporters/console_text.hpp"
#include "command_line/reporters/reporter.hpp"
#include "command_line/reporters/summary_text.hpp"

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gemm {

// The terminal table (console_text.hpp formats its rows): read at a glance by
// default, the method and every figure of it with `verbose`. Everything it prints is
// escaped for the terminal; verdicts are in colour when `colour`, by default when `out` is
// std::cout and stdout is a terminal that wants colour (terminal_wants_colour).
class ConsoleReporter : public Reporter {
  public:
    ConsoleReporter(std::ostream &out, bool show_output, bool verbose = false,
                    std::optional<bool> colour = std::nullopt);
    void run_started(const RunContext &run) override;
    void compile_failed(const RunContext &run, const std::string &message) override;
    void start_failed(const RunContext &run, Verdict verdict, const std::string &why) override;
    void note(const std::string &text) override;
    void case_skipped(const TestCase &tc, const std::string &why) override;
    void cases_not_run(const NotRun &not_run) override;
    void case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) override;
    void no_gpu(const NoGpu &x) override { said(text_of(x)); }
    void shrunk(const ShrinkFinding &x) override { said(text_of(x)); }
    void stressed(const StressFinding &x) override { said(text_of(x)); }
    void profiled(const ProfileFinding &x) override { said(text_of(x)); }
    void ranked(const RankSummary &x) override { said(text_of(x)); }
    void compared(const CompareSummary &x) override { said(text_of(x)); }
    void history_listed(const HistoryList &x) override { said(text_of(x)); }
    void leaderboards_listed(const Leaderboards &x) override;
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    void said(const std::string &text); // a summary's block of text, escaped
    std::ostream &out_;
    bool show_output_, verbose_, colour_;
    ConsoleLayout layout_;
    std::size_t not_run_ = 0;
    bool said_once_ = false; // the run's one reason was said (CE, or the solution never loaded): no table follows
};

} // namespace gemm
