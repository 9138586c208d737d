#pragma once

#include "command_line/reporters/reporter.hpp"

#include <string>
#include <vector>

namespace gemm {

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
