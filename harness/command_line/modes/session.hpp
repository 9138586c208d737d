// One judging session: the options, the reporters, the GPU and the compiled solution,
// and the ways to run cases (the suite, stress, the sanitizer, shrinking a failure)
// that every mode of ./judge builds on (main/judge_main.cpp, rank_mode.cpp, compare_mode.cpp).
#pragma once

#include "command_line/options/cli.hpp"
#include "command_line/reporters/console_reporter.hpp"
#include "command_line/reporters/json_reporter.hpp"
#include "command_line/reporters/junit_reporter.hpp"
#include "command_line/reporters/reporter_set.hpp"
#include "judging/shrink.hpp"
#include "judging/supervisor.hpp"
#include "testcases/categories.hpp"

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

// A status line on stderr, only on a terminal, rewritten in place.
class Progress {
  public:
    Progress();
    void show(const std::string &text) const;
    void clear() const;

  private:
    bool enabled_;
};

// Does the command line select this testcase (--case, or its --category)?
bool wanted(const TestCase &tc, const JudgeOptions &options);

// The suite, checked whole (every explicit expected C against its FP64 reference, so a
// wrong testcase is the judge's error, never the solution's WA), then the selection.
std::vector<TestCase> selected_cases(const JudgeOptions &options);

// The reporters the command line asks for: the console always, --json and --junit files.
Reporters reporters_for(const JudgeOptions &options);

struct Session {
    Session(const JudgeOptions &options, Reporters &report, std::string solution);

    const JudgeOptions &options;
    Reporters &report;
    RunContext context;
    std::string referee, runner; // the programs beside the judge's own
    Progress progress;
    std::vector<std::array<long long, 4>> timed_shapes; // M, N, K, batch; set by prepare()
    const Supervisor *supervisor_ = nullptr;            // the one prepare() made: its case runs are timed
    Supervisor::CaseRuns other_runs_;                   // those of supervisors of its own (--sanitize's, a tool each)

    // Probes the GPU, compiles the solution and starts its processes. The exit status
    // when no case can run (CE, no GPU: the reporters have been told, with `cases` as
    // CE), else nothing and `supervisor` is ready. `also_timed`: cases run later with
    // timing (rank's ranked set), whose empty calls are measured at the start too.
    std::optional<int> prepare(const std::vector<TestCase> &cases, std::unique_ptr<Supervisor> &supervisor,
                               const std::vector<TestCase> &also_timed = {});
    // Tells the reporters the run is over; the exit status of the worst verdict.
    int finish(const std::vector<CaseResult> &results);

    SupervisorOptions supervision(double time_limit_scale = 1.0) const;
    std::string reproduce_command(const Shape &shape, std::uint64_t seed, const std::string &data) const;
    // Shrinks a failing case to the smallest shape that still fails, with the case's
    // generator (an explicit case's timed-input generator), untimed.
    void shrink(Supervisor &supervisor, const TestCase &failing, const CaseResult &failure);
    std::vector<CaseResult> judge_cases(Supervisor &supervisor, const std::vector<TestCase> &cases);
    // Random shapes until the first failure, which is then shrunk.
    std::vector<CaseResult> stress(Supervisor &supervisor);
    // Every small case under each compute-sanitizer tool; a finding is RE with its source line.
    std::vector<CaseResult> sanitize(std::vector<TestCase> cases);
};

} // namespace gemm
