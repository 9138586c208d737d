// Records every judge and rank run in the history database (judge/history.hpp) as one
// attempt: the verdicts, the per-case samples and, for a rank run, its score. A history
// that cannot be written costs a warning, never the run.
#pragma once

#include "judge/reporter.hpp"

#include <optional>
#include <string>

namespace gemm {

class HistoryReporter : public Reporter {
  public:
    HistoryReporter(std::string database, std::string mode, std::string judge_version)
        : database_(std::move(database)), mode_(std::move(mode)), judge_version_(std::move(judge_version)) {}
    void finding(const std::string &key, const nlohmann::json &value, const std::string &text) override;
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::string database_, mode_, judge_version_;
    nlohmann::json findings_ = nlohmann::json::object();
};

} // namespace gemm
