// What every reporter knows of a run besides its cases: the solution, how it was compiled,
// the GPU, the budgets, the cases planned, and the cases that were not run.
#pragma once

#include "command_line/reporters/run_timeline.hpp"
#include "compile/compile.hpp"
#include "verification/case_result.hpp"

#include <string>
#include <vector>

namespace gemm {

// A case the run will judge, known before it runs: the table's columns are sized for them.
struct PlannedCase {
    std::string name;
    int M = 0, N = 0, K = 0;
};

struct RunContext {
    std::string solution; // as the user named it
    std::string problem;  // the problem's name (testcases/problem.hpp)
    bool default_problem = true;
    std::string arch; // what it was compiled for
    CompileResult compile;
    DeviceInfo device;
    double time_budget_s = 0;             // a perf or rank case's, or one timed against cuBLAS
    double correctness_time_budget_s = 0; // a case timed for correctness alone (judging/case_policy.hpp)
    std::string precision = "fp32";       // what the outputs are judged against
    RunTimeline timeline;
    std::string cpus;                 // where the referee and the runners ran (judging/os/cpu_placement.hpp)
    std::vector<PlannedCase> planned; // the cases to judge, in order (empty: not known ahead, as for --stress)
};

// Cases the run did not judge, and why (fail-fast stopped it, the solution could not load).
struct NotRun {
    std::vector<std::string> names;
    std::string why;
};

} // namespace gemm
