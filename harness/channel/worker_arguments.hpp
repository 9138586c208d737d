// The command lines the supervisor (judging/supervisor.cpp) starts the referee and the
// runners with, read by CLI11 in one file: its templates cost about 9 CPU-seconds in every
// file that includes it, which each program's main() would pay (docs/perf-notes.md,
// "Build time").
#pragma once

#include <string>
#include <variant>
#include <vector>

namespace gemm {

struct RefereeArguments {
    bool probe = false;
    int in_fd = -1, out_fd = -1, runner_fd = -1, baseline_fd = -1;
    std::vector<int> spare_runner_fds; // sockets for runners that replace a failed one, in order
};

struct RunnerArguments {
    std::string library, unconfined_reason;
    std::string entry; // the entry point and its arguments (entry_plan.hpp); none: the default problem's
    int referee_fd = -1, monitor_fd = -1;
    bool baseline = false;
};

// The arguments, or the status to exit with once CLI11 has printed its help or its error.
std::variant<RefereeArguments, int> read_referee_arguments(int argc, char **argv);
std::variant<RunnerArguments, int> read_runner_arguments(int argc, char **argv);

} // namespace gemm
