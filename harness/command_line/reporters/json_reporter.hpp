// The --json report: the public format of a run's results, read by people, scripts, the
// history and `./judge compare`. It is written here from the typed results, key by key, and
// is independent of the private channel between the judge's processes
// (channel/protocol.hpp), which may change without changing it. Its schema, with its
// version, is docs/report.schema.json; docs/json-report.md explains it.
#pragma once

#include "command_line/reporters/console_text.hpp"
#include "command_line/reporters/reporter.hpp"
#include "command_line/reporters/summary_json.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemm {

// Raised when a change to the report removes or renames a key or changes a key's meaning;
// adding a key does not raise it.
constexpr int report_schema_version = 1;

// Every figure of a run; each string in it is valid UTF-8 (made_valid_utf8), so it can be
// written (dump) whatever bytes the compiler, the solution or a file name held.
nlohmann::json report_json(const RunContext &run, const std::vector<CaseResult> &results, int exit_status);

// One case as the report holds it.
nlohmann::json case_report_json(const CaseResult &r);

// The value with every string and key made valid UTF-8 (common/terminal_text.hpp: valid_utf8).
nlohmann::json made_valid_utf8(nlohmann::json value);

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

} // namespace gemm
