// The seccomp filter: a BPF program, built with libseccomp, that every system call of the
// confined process passes through. With a monitor, the calls worth naming (sockets,
// ptrace, process_vm_*, signals, every call that opens, creates or removes by path, chmod,
// mount and its kin) go to the judge's AttemptMonitor as user notifications, and the judge
// decides; the calls nothing legitimate makes fail with EPERM at once. Without a monitor
// (nvcc), what needs a decision is left to Landlock and the rest fails with EPERM.
//
// seccomp() itself is refused: a filter the process added later would see the same calls
// first, and with a listener of its own could answer them itself.
#pragma once

#include "sandbox/policy.hpp"

#include <linux/filter.h>
#include <string>
#include <vector>

namespace gemm::sandbox {

class SeccompProgram {
  public:
    SeccompProgram(const Policy &policy, bool with_monitor, std::vector<std::string> &unconfined);

    bool ready() const { return !program_.empty(); }

    // Sets no_new_privs and installs the filter on the calling thread, or on every thread
    // of the process (`all_threads`: CUDA's too). Returns the listener (with a monitor), 0
    // (without), or -1 with errno set. System calls only, for a forked child.
    int install(bool all_threads) const noexcept;

  private:
    bool with_monitor_;
    std::vector<sock_filter> program_;
};

} // namespace gemm::sandbox
