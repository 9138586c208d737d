// Records every judge and rank run in the history database (command_line/history/history.hpp) as one
// attempt: the verdicts, the per-case samples and its score (over the cases timed against
// cuBLAS). A history that cannot be written costs a warning, never the run; a damaged one
// is set aside and a new one started (command_line/history/history.hpp); another program's database
// named as the history is refused before the run (SetupError, exit 7).
#pragma once

#include "command_line/history/history.hpp"
#include "command_line/reporters/json_reporter.hpp"

#include <optional>
#include <string>

namespace gemm {

class HistoryReporter : public SummariesAsJson {
  public:
    // database: the file named by --history, or empty for the default place.
    HistoryReporter(std::string database, std::string mode, std::string judge_version);
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::string file() const;
    HistoryPlace place() const;
    std::string database_, mode_, judge_version_;
};

} // namespace gemm
