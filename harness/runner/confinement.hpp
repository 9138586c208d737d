// How a runner is confined before it loads a solution (sandbox/confine.hpp does the
// work): what it may read and write (Landlock), which system calls go to the judge's
// monitor (seccomp), its limits and its user. In two steps, because Landlock before ABI 8
// binds only the calling thread: the files while the process has one thread (before
// CUDA starts its own), the rest after CUDA is up. The judge is handed the listener and
// then what could not be confined ("no Landlock: kernel ABI 0"), both before any
// solution code runs, so that report is the runner's own code speaking.
#pragma once

#include "sandbox/confine.hpp"
#include "sandbox/policy.hpp"

#include <string>
#include <sys/types.h>

namespace gemm {

// What the runner with process id `pid`, working in `scratch`, may touch; `relaxed`
// names a tool it runs under (compute-sanitizer, ncu) that needs more. The judge builds
// the same policy to name what a blocked attempt aimed at.
sandbox::Policy runner_policy(const std::string &scratch, pid_t pid, const std::string &relaxed);

class RunnerConfinement {
  public:
    // Step 1, before CUDA starts: no new privileges and Landlock.
    explicit RunnerConfinement(const std::string &relaxed);
    // Step 2, after: limits, the user, seccomp; the listener and the report go to the
    // judge on `monitor_fd`, which is closed. False when the judge could not be told
    // (the runner must then not load the solution).
    bool finish(int monitor_fd);

  private:
    std::string relaxed_;
    sandbox::Policy policy_;
    sandbox::Outcome filesystem_;
};

} // namespace gemm
