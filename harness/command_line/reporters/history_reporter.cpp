#include "command_line/reporters/history_reporter.hpp"
#include "command_line/history/history.hpp"
#include "common/errors.hpp"
#include "compile/content_hash.hpp"
#include "verification/run_score.hpp"

#include <filesystem>
#include <iostream>

namespace gemm {

namespace {

CaseRecord record_of(const CaseResult &r) {
    CaseRecord c;
    c.name = r.name;
    c.verdict = verdict_name(r.verdict);
    if (r.timing) {
        c.median_ms = r.timing->stats.median_ms;
        c.relative_spread = r.timing->stats.relative_spread();
        c.samples_ms = r.timing->samples_ms;
    }
    if (r.baseline) c.cublas_median_ms = r.baseline->stats.median_ms;
    return c;
}

} // namespace

HistoryReporter::HistoryReporter(std::string database, std::string mode, std::string judge_version)
    : database_(std::move(database)), mode_(std::move(mode)), judge_version_(std::move(judge_version)) {
    // Looked at before the run, not after minutes of judging: another program's database
    // named as the history is refused now, and a damaged history is set aside now. A file
    // not there yet is created only when there is an attempt to record.
    std::string path;
    try {
        path = file();
    } catch (const HistoryError &) {
        return; // no default place: said when the run is recorded
    }
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return;
    try {
        const History history = History::open(path, place());
        if (!history.recovery_note().empty()) std::cerr << history.recovery_note() << "\n";
    } catch (const ForeignDatabase &e) {
        throw SetupError(std::string(e.what()) + " (or --no-history)");
    } catch (const HistoryError &) {
        // Unreadable for another reason (permissions, a lock held too long): said, and the
        // run judged, when it is recorded.
    }
}

std::string HistoryReporter::file() const { return database_.empty() ? default_history_path() : database_; }

HistoryPlace HistoryReporter::place() const {
    return database_.empty() ? HistoryPlace::default_place : HistoryPlace::named;
}

void HistoryReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    if (results.empty() || !run.device.present) return; // nothing ran on a GPU: no attempt to remember
    Attempt a;
    a.mode = mode_;
    a.problem = run.problem;
    a.solution_path = recorded_solution_path(run.solution);
    a.solution_name = std::filesystem::path(a.solution_path).filename().string();
    a.solution_hash = hash_of_file(run.solution).value_or("");
    a.gpu_name = run.device.name;
    a.driver_version = run.device.driver_version;
    a.sm_clock_mhz = sm_clock_during_run(results, run.device);
    a.judge_version = judge_version_;
    a.worst_verdict = verdict_name(worst_verdict(results));
    if (const auto score = score_against_cublas(results, run.device)) {
        a.geomean_ms = score->geomean_ms;
        a.geomean_ratio_to_cublas = score->geomean_ratio_to_cublas;
        a.percent_of_peak = score->percent_of_peak;
    }
    if (findings_.contains("rank") && findings_["rank"].contains("noise_floor"))
        a.noise_floor = findings_["rank"]["noise_floor"].get<double>();
    a.report_json = whole_report(run, results, exit_status).dump();
    for (const auto &r : results) a.cases.push_back(record_of(r));
    try {
        History history = History::open(file(), place());
        history.record(a);
        if (!history.recovery_note().empty()) std::cerr << history.recovery_note() << "\n";
    } catch (const std::exception &e) {
        std::cerr << "judge: this run was not recorded in the history: " << e.what() << "\n";
    }
}

} // namespace gemm
