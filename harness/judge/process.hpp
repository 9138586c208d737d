// Child processes: run a tool and capture what it prints, and describe how a child ended.
#pragma once

#include <string>
#include <vector>

namespace gemm {

struct CapturedRun {
    bool started = false; // false when the program could not be executed at all
    int exit_code = -1;   // valid when signal == 0
    int signal = 0;
    std::string output; // stdout and stderr, interleaved as printed
};

// Runs argv[0] (looked up in PATH) with stdin from /dev/null, in a process group of its
// own that an interrupt of the judge kills (interrupt.hpp).
CapturedRun run_captured(const std::vector<std::string> &argv);

// The executable file `program` names: itself when it holds a `/`, else the first match
// in PATH; empty when there is none.
std::string find_program(const std::string &program);

// In a forked child before exec: closes every descriptor from 3 up except `keep`, so a
// child (a solution above all) cannot write to files its parent happened to have open.
void close_inherited_descriptors(const std::vector<int> &keep = {});

// "exited with status 3", "killed by signal 11 (Segmentation fault)".
std::string describe_wait_status(int wait_status);

} // namespace gemm
