// --stream FILE: the run as it happens, one JSON object per line, flushed after each, for a
// program that shows the verdicts while the judge is still running (./judge serve relays
// them to the browser as server-sent events). Each line has an "event":
//   run_started    the solution, the problem, what it was compiled for, the GPU, the planned cases
//   stage          what the judge is doing now: "judging", with "case" (1-based) and "of"
//   compile_failed the message (nvcc's, or why the library has no solve())
//   start_failed   no case could run: the verdict and why
//   note, finding  a line about the run; a summary (reporter.hpp): its key and value as the
//                  --json report holds them, and the console's text of it
//   case_skipped, cases_not_run
//   case_finished  "case": the same object as one entry of the --json report's "cases"
//   run_finished   "summary" and "exit_status" as in the --json report, and the report's
//                  "judge_seconds"
// Every string in a line is valid UTF-8 (made_valid_utf8), whatever the solution printed.
#pragma once

#include "command_line/reporters/json_reporter.hpp"

#include <cstdio>
#include <string>

namespace gemm {

class StreamReporter : public Reporter {
  public:
    // "-" is standard output. A file that cannot be opened is a SetupError naming it.
    explicit StreamReporter(const std::string &path);
    ~StreamReporter() override;
    StreamReporter(const StreamReporter &) = delete;
    StreamReporter &operator=(const StreamReporter &) = delete;

    void run_started(const RunContext &run) override;
    void compile_failed(const RunContext &run, const std::string &message) override;
    void note(const std::string &text) override;
    void start_failed(const RunContext &run, Verdict verdict, const std::string &why) override;
    void case_skipped(const TestCase &tc, const std::string &why) override;
    void cases_not_run(const NotRun &not_run) override;
    void case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) override;
    // A summary: its key in the --json report, its value as the report holds it, and the
    // console's text of it.
    void no_gpu(const NoGpu &x) override { finding("no_gpu", x); }
    void shrunk(const ShrinkFinding &x) override { finding("shrink", x); }
    void stressed(const StressFinding &x) override { finding("stress", x); }
    void profiled(const ProfileFinding &x) override { finding("profile", x); }
    void ranked(const RankSummary &x) override { finding("rank", x); }
    void compared(const CompareSummary &x) override { finding("compare", x); }
    void history_listed(const HistoryList &x) override { finding("history", x); }
    void leaderboards_listed(const Leaderboards &x) override;
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    template <typename Summary> void finding(const char *key, const Summary &x) {
        emit({{"event", "finding"}, {"key", key}, {"value", nlohmann::json(x)}, {"text", text_of(x)}});
    }
    void emit(nlohmann::json line);
    void judging_stage();
    std::FILE *out_ = nullptr;
    bool owned_ = false;
    RunContext run_;       // kept from run_started: a finished case is reported as --json reports it
    std::size_t done_ = 0; // cases finished or skipped so far
};

} // namespace gemm
