#include "command_line/reporters/stream_reporter.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "verification/verdict.hpp"

#include <cerrno>
#include <cstring>

namespace gemm {

StreamReporter::StreamReporter(const std::string &path) {
    if (path == "-") {
        out_ = stdout;
        return;
    }
    out_ = std::fopen(path.c_str(), "w");
    if (!out_)
        throw SetupError("cannot write the --stream file " + escape_for_terminal(path) + ": " + std::strerror(errno));
    owned_ = true;
}

StreamReporter::~StreamReporter() {
    if (owned_) std::fclose(out_);
}

// A reader may be waiting for this very line (a browser showing the verdicts): flushed
// at once. A reader that went away costs the run nothing: a failed write is ignored.
void StreamReporter::emit(nlohmann::json line) {
    const std::string text =
        made_valid_utf8(std::move(line)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    std::fwrite(text.data(), 1, text.size(), out_);
    std::fflush(out_);
}

void StreamReporter::judging_stage() {
    const std::size_t of = run_.planned.size();
    if (of > 0 && done_ >= of) return;
    nlohmann::json line = {{"event", "stage"}, {"stage", "judging"}, {"case", done_ + 1}};
    if (of > 0) line["of"] = of;
    emit(std::move(line));
}

void StreamReporter::run_started(const RunContext &run) {
    run_ = run;
    nlohmann::json planned = nlohmann::json::array();
    for (const auto &c : run.planned) planned.push_back({{"name", c.name}, {"M", c.M}, {"N", c.N}, {"K", c.K}});
    emit({{"event", "run_started"},
          {"solution", run.solution},
          {"problem", run.problem},
          {"arch", run.arch},
          {"cached", run.compile.cached},
          {"device", run.device},
          {"precision", run.precision},
          {"planned", planned}});
    judging_stage();
}

void StreamReporter::compile_failed(const RunContext &run, const std::string &message) {
    emit({{"event", "compile_failed"}, {"solution", run.solution}, {"arch", run.arch}, {"message", message}});
}

void StreamReporter::note(const std::string &text) { emit({{"event", "note"}, {"text", text}}); }

void StreamReporter::start_failed(const RunContext &, Verdict verdict, const std::string &why) {
    emit({{"event", "start_failed"}, {"verdict", verdict_name(verdict)}, {"why", why}});
}

void StreamReporter::case_skipped(const TestCase &tc, const std::string &why) {
    ++done_;
    emit({{"event", "case_skipped"}, {"name", tc.name}, {"why", why}});
    judging_stage();
}

void StreamReporter::cases_not_run(const NotRun &not_run) {
    emit({{"event", "cases_not_run"}, {"cases", not_run.names}, {"why", not_run.why}});
}

void StreamReporter::case_finished(const CaseResult &r, const TestCase &, const CasePolicy &) {
    ++done_;
    // The --json report's own entry for this case, so a reader parses one format.
    emit({{"event", "case_finished"}, {"index", done_}, {"case", case_report_json(r)}});
    judging_stage();
}

void StreamReporter::leaderboards_listed(const Leaderboards &x) {
    std::string text;
    for (const auto &board : x.boards) text += text_of(board) + "\n";
    emit({{"event", "finding"}, {"key", "leaderboard"}, {"value", nlohmann::json(x)}, {"text", text}});
}

void StreamReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    const nlohmann::json report = report_json(run, results, exit_status);
    emit({{"event", "run_finished"},
          {"summary", report["summary"]},
          {"exit_status", exit_status},
          {"judge_seconds", report["judge_seconds"]}});
}

} // namespace gemm
