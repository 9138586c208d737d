// One child of the supervisor (the referee or a runner): started in a process group of
// its own that dies with the judge and that an interrupt kills, with only the
// descriptors it is given, and its stdout and stderr on a pipe the supervisor reads.
#pragma once

#include "judging/os/interrupt.hpp"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gemm {

struct ChildSpec {
    std::vector<std::string> argv;
    std::vector<int> keep_fds; // inherited under the same numbers; every other descriptor is closed
    int output_fd = -1;        // its stdout and stderr; -1: /dev/null
    std::string cwd;           // empty: the judge's
    std::optional<std::vector<std::string>> environment; // nullopt: the judge's
    int cpu = -1; // pinned to this CPU before exec, with whatever it starts (judging/os/cpu_placement.hpp); -1: free
};

class ChildProcess {
  public:
    ChildProcess() = default;
    ~ChildProcess() { stop(); }
    ChildProcess(const ChildProcess &) = delete;
    ChildProcess &operator=(const ChildProcess &) = delete;

    // False (errno set) when no process could be made; an exec failure shows as exit 127.
    bool start(const ChildSpec &spec);
    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0; }
    // Waits up to `wait_s` for it to end, then kills its group; the wait status.
    int reap(double wait_s);
    void stop(); // kills the group and reaps
    // Kills the group without waiting: several children then end at once (each one's CUDA
    // context takes a while to tear down as it exits: docs/perf-notes.md), and stop() reaps them.
    void kill_group();
    // Kills the group and forgets it, without waiting for it to end: for the judge's last act,
    // where waiting would only keep the user from the prompt while CUDA contexts are torn down
    // (the kernel reaps them once the judge has exited).
    void abandon();

  private:
    pid_t pid_ = -1;
    std::optional<ChildGroupGuard> stop_on_interrupt_;
};

} // namespace gemm
