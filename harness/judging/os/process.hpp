// Child processes: run a tool and capture what it prints, bounded in time and confined
// when asked (nvcc), and describe how a child ended.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gemm {

namespace sandbox {
class ChildConfinement;
}

struct CapturedRun {
    bool started = false; // false when the program could not be executed at all
    int exit_code = -1;   // valid when signal == 0
    int signal = 0;
    bool timed_out = false;          // ran past ChildSetup::wall_seconds and was killed, with its group
    bool confinement_failed = false; // the child could not confine itself, so it did not run
    std::string output;              // stdout and stderr, interleaved as printed
};

struct ChildSetup {
    double wall_seconds = 0;                                // then the whole process group is killed; 0: no limit
    std::vector<std::string> environment;                   // "NAME=value", added to the judge's or replacing it
    const sandbox::ChildConfinement *confinement = nullptr; // applied in the child just before exec
    std::size_t output_limit = 0;                           // bytes of output kept (the rest counted); 0: all
};

// Runs argv[0] (looked up in PATH) with stdin from /dev/null, in a process group of its
// own that an interrupt of the judge kills (interrupt.hpp). When it ends, whatever it left
// running in its group is killed too.
CapturedRun run_captured(const std::vector<std::string> &argv, const ChildSetup &setup = {});

// The executable file `program` names: itself when it holds a `/`, else the first match
// in PATH; empty when there is none.
std::string find_program(const std::string &program);

// In a forked child before exec: closes every descriptor from 3 up except `keep`, so a
// child (a solution above all) cannot write to files its parent happened to have open.
void close_inherited_descriptors(const std::vector<int> &keep = {});

// This process's environment with `overrides` ("NAME=value") put in; built before fork, since
// a forked child may not allocate.
std::vector<std::string> environment_with(const std::vector<std::string> &overrides);

// "exited with status 3", "killed by signal 11 (Segmentation fault)".
std::string describe_wait_status(int wait_status);

} // namespace gemm
