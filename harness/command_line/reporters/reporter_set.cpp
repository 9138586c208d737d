#include "command_line/reporters/reporter_set.hpp"
#include "common/errors.hpp"

#include <string>

namespace gemm {

void Reporters::run_started(const RunContext &run) {
    for (auto &r : all_) r->run_started(run);
}
void Reporters::compile_failed(const RunContext &run, const std::string &message) {
    for (auto &r : all_) r->compile_failed(run, message);
}
void Reporters::note(const std::string &text) {
    for (auto &r : all_) r->note(text);
}
void Reporters::start_failed(const RunContext &run, Verdict verdict, const std::string &why) {
    for (auto &r : all_) r->start_failed(run, verdict, why);
}
void Reporters::case_skipped(const TestCase &tc, const std::string &why) {
    for (auto &r : all_) r->case_skipped(tc, why);
}
void Reporters::cases_not_run(const NotRun &not_run) {
    for (auto &r : all_) r->cases_not_run(not_run);
}
void Reporters::case_finished(const CaseResult &result, const TestCase &tc, const CasePolicy &policy) {
    for (auto &r : all_) r->case_finished(result, tc, policy);
}
void Reporters::no_gpu(const NoGpu &x) {
    for (auto &r : all_) r->no_gpu(x);
}
void Reporters::shrunk(const ShrinkFinding &x) {
    for (auto &r : all_) r->shrunk(x);
}
void Reporters::stressed(const StressFinding &x) {
    for (auto &r : all_) r->stressed(x);
}
void Reporters::profiled(const ProfileFinding &x) {
    for (auto &r : all_) r->profiled(x);
}
void Reporters::ranked(const RankSummary &x) {
    for (auto &r : all_) r->ranked(x);
}
void Reporters::compared(const CompareSummary &x) {
    for (auto &r : all_) r->compared(x);
}
void Reporters::history_listed(const HistoryList &x) {
    for (auto &r : all_) r->history_listed(x);
}
void Reporters::leaderboards_listed(const Leaderboards &x) {
    for (auto &r : all_) r->leaderboards_listed(x);
}
void Reporters::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    std::string failures;
    for (auto &r : all_) {
        try {
            r->run_finished(run, results, exit_status);
        } catch (const SetupError &e) {
            failures += (failures.empty() ? "" : "; ") + std::string(e.what());
        }
    }
    if (!failures.empty()) throw SetupError(failures);
}

} // namespace gemm
