// How a runner is confined before it loads a solution: what it may read and write
// (Landlock), which system calls go to the judge's monitor (seccomp), its limits and
// its user. The judge is handed the monitor's listener together with what could not
// be confined ("no Landlock: kernel ABI 0"), before any solution code runs, so that
// message is the runner's own code speaking, not the solution's.
#pragma once

#include "sandbox/policy.hpp"

#include <string>
#include <sys/types.h>

namespace gemm {

// The user a runner started by root becomes: nobody (its folder is made over to it).
constexpr uid_t unprivileged_runner_uid = 65534;
constexpr gid_t unprivileged_runner_gid = 65534;

// What the runner with process id `pid`, working in `scratch`, may touch. The judge
// builds the same policy to name what a blocked attempt aimed at.
sandbox::Policy runner_policy(const std::string &scratch, pid_t pid, const std::string &relaxed);

// Confines the calling process; `relaxed` names a tool the runner runs under
// (compute-sanitizer, ncu) that needs more than a solution alone. Sends the listener
// and the list of what is unconfined on `monitor_fd`, then closes it. False when the
// judge could not be told (the runner must then not load the solution).
bool confine_runner(int monitor_fd, const std::string &relaxed);

} // namespace gemm
