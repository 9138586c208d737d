// Confining a process that will run untrusted code: no new privileges, resource limits,
// Landlock (the files it may read and write; no TCP; signals and abstract sockets only
// within its own sandbox), an unprivileged user when it runs as root, and a seccomp filter
// whose interesting calls the judge decides and names (attempt_monitor.hpp). A mechanism
// the kernel lacks or refuses is listed in Outcome::unconfined, never skipped silently:
// the judge reports the list with the verdicts. The caller scrubs the environment.
//
// The runner, in this order:
//   1. restrict_filesystem(policy)          while it still has one thread (before cuInit)
//   2. CUDA initialisation, IPC imports     (as root if the judge runs as root)
//   3. confine_self(policy, monitor_socket) the listener goes to the judge, never stays here
//   4. dlopen the solution
// Step 1 matters on kernels before Landlock ABI 8, which bind only the calling thread: the
// threads cuInit starts are then covered because they inherit it. confine_self alone applies
// Landlock too, to every thread on ABI 8 and to the calling thread only before (reported).
#pragma once

#include "sandbox/landlock.hpp"
#include "sandbox/policy.hpp"
#include "sandbox/resource_limits.hpp"
#include "sandbox/seccomp_filter.hpp"

#include <string>
#include <vector>

namespace gemm::sandbox {

struct Outcome {
    // What is not confined, in the user's words: "no Landlock: kernel ABI 0, …", "runs as
    // root: no unprivileged user to switch to". Empty when every mechanism is in force.
    std::vector<std::string> unconfined;
    bool listener_handed_over = false;
};

// no_new_privs and Landlock; call while the process has a single thread.
Outcome restrict_filesystem(const Policy &policy);

// Everything else, for every thread: resource limits, Landlock (unless restrict_filesystem
// applied it), the switch to run_as when root, and the seccomp filter (after which no
// connect() succeeds: connect what you need before). Its listener is sent
// to the judge over `monitor_socket` (send_fd, payload "seccomp listener") and closed here:
// code in this process holding it could answer its own notifications. Between installing
// the filter and sending, only sendmsg and close run, neither of them a call the filter asks
// about, so nothing waits on a judge that has no listener yet. With monitor_socket < 0 the
// calls the judge would decide fail with EPERM instead, unnamed.
Outcome confine_self(const Policy &policy, int monitor_socket);

// The same confinement for a program the judge starts (nvcc), without a monitor: prepared in
// the parent, applied in the forked child just before exec with system calls alone (a child
// of a multi-threaded process may not allocate).
class ChildConfinement {
  public:
    explicit ChildConfinement(const Policy &policy);

    const std::vector<std::string> &unconfined() const { return unconfined_; }

    // In the child. False with errno set when a mechanism that was ready is refused: the
    // child should then not exec.
    bool apply() const noexcept;

  private:
    std::vector<std::string> unconfined_;
    ResourceLimits limits_;
    LandlockRuleset landlock_;
    SeccompProgram filter_;
    bool switch_user_ = false;
    uid_t uid_ = 0;
    gid_t gid_ = 0;
};

} // namespace gemm::sandbox
