// Every mode (suite, stress, sanitize, rank, compare, history) tells what happened
// through these events, as typed values (a case result, the summaries of summaries.hpp),
// and the reporters turn them into the console table, the JSON report, a JUnit file, the
// history and a plot: one set of events, several outputs, as google/benchmark's reporters.
// A mode formats nothing; its notes are sentences about the run ("rank: no score: …").
#pragma once

#include "channel/protocol.hpp"
#include "command_line/reporters/report.hpp"
#include "command_line/reporters/report_json.hpp"
#include "command_line/reporters/summaries.hpp"
#include "command_line/reporters/summary_json.hpp"
#include "command_line/reporters/summary_text.hpp"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
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

// The terminal table (command_line/reporters/report.hpp formats its rows): read at a glance by
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

// The summaries a run told, as JSON under their keys (summary_json.hpp), made valid UTF-8
// (made_valid_utf8) so that every report holding them can be written: for the reporters
// that write a whole report at the end (--json, the history).
class SummariesAsJson : public Reporter {
  public:
    void cases_not_run(const NotRun &not_run) override;
    void no_gpu(const NoGpu &x) override { keep("no_gpu", x); }
    void shrunk(const ShrinkFinding &x) override { keep("shrink", x); }
    void stressed(const StressFinding &x) override { keep("stress", x); }
    void profiled(const ProfileFinding &x) override { keep("profile", x); }
    void ranked(const RankSummary &x) override { keep("rank", x); }
    void compared(const CompareSummary &x) override { keep("compare", x); }
    void history_listed(const HistoryList &x) override { keep("history", x); }
    void leaderboards_listed(const Leaderboards &x) override { keep("leaderboard", x); }

  protected:
    // The report of the run with every summary under its key (report_json, whose schema is
    // docs/report.schema.json).
    nlohmann::json whole_report(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) const;
    nlohmann::json findings_ = nlohmann::json::object();

  private:
    template <typename Summary> void keep(const char *key, const Summary &x) {
        findings_[key] = made_valid_utf8(nlohmann::json(x));
    }
};

// --json FILE: the whole report, written when the run ends; a file that cannot be written
// is a SetupError naming it.
class JsonReporter : public SummariesAsJson {
  public:
    explicit JsonReporter(std::string path) : path_(std::move(path)) {}
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::string path_;
};

// --junit FILE: one <testcase> per case, a <failure> for WA and TLE, an <error> for RE,
// CE and JE, so a CI system shows the judge's verdicts as test results. A run without a
// GPU is one <testcase> with an <error> saying so, never an empty (passing) suite.
class JUnitReporter : public Reporter {
  public:
    explicit JUnitReporter(std::string path) : path_(std::move(path)) {}
    void cases_not_run(const NotRun &not_run) override { not_run_ = not_run; }
    void no_gpu(const NoGpu &x) override { no_gpu_ = x.why; }
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::string path_;
    std::string no_gpu_; // why there was no GPU, when there was none
    NotRun not_run_;
};

// The JUnit XML of a run (what JUnitReporter writes), well-formed whatever the names and
// messages hold (pugixml; control bytes and bytes that are not UTF-8 escaped as `\xHH`).
// `no_gpu`: why nothing ran, when no GPU was there; cases not run are <skipped/>.
std::string junit_xml(const RunContext &run, const std::vector<CaseResult> &results, const std::string &no_gpu = "",
                      const NotRun &not_run = {});

} // namespace gemm
