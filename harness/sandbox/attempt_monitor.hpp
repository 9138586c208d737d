// The judge's side of the seccomp filter (seccomp_filter.hpp): it answers every user
// notification of one confined process (and of whatever that process starts) and names,
// in the user's words, what the process tried and was refused:
//   tried to open a network socket (blocked)
//   tried to read /root/x/secret.case (blocked)
//   tried to write /root/.local/share/gemm-judge/history.sqlite (blocked)
//   tried to ptrace process 123 (blocked)
//   tried to read another process's memory (process_vm_readv, blocked)
//   tried to signal process 1 (blocked)
// Sockets other than AF_UNIX, connect (to any address: Landlock does not cover Unix socket
// paths), ptrace, process_vm_*, chmod and chown, mount and its kin are refused here (EPERM). A signal goes through only
// to the confined process's own process group. A call on a path goes on (SECCOMP_USER_NOTIF_FLAG_CONTINUE) to Landlock,
// which enforces; the monitor reads the path from the process and names it when the same Policy refuses it. Reading
// another process's memory races with it, so what is read only ever names an attempt, never allows one.
#pragma once

#include "sandbox/access_rules.hpp"
#include "sandbox/policy.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <sys/types.h>
#include <vector>

struct seccomp_notif;

namespace gemm::sandbox {

class AttemptMonitor {
  public:
    // `listener_fd` (received from the confined process; closed by the destructor), the
    // Policy the process confined itself with, and its pid: the process group it is in now
    // is the one it may signal, whatever group it moves to later.
    AttemptMonitor(int listener_fd, Policy policy, pid_t confined);
    ~AttemptMonitor();
    AttemptMonitor(const AttemptMonitor &) = delete;
    AttemptMonitor &operator=(const AttemptMonitor &) = delete;

    // Poll for POLLIN. POLLHUP: no process is left under the filter.
    int fd() const { return listener_; }

    // Answers every notification pending now. A confined thread waits in its call until
    // this answers, so call it whenever fd() is readable.
    void handle_ready();

    // The attempts named since the last call: each once, in order, at most max_attempts
    // and then a line saying how many more. Signals to other processes are one line however
    // many there were: "tried to signal 4,094 processes (the judge among them; blocked)".
    std::vector<std::string> take_attempts();

    static constexpr std::size_t max_attempts = 50;

  private:
    struct Decision {
        bool allow = false; // continue the call (to Landlock); otherwise refuse it with `error`
        int error = 0;
        std::string attempt; // what to name; empty for nothing
        pid_t signalled = 0; // a refused signal to this process: counted, named with the others
    };
    Decision decide(const seccomp_notif &notification) const;
    Decision decide_signal(pid_t caller, int call, const std::uint64_t *args) const;
    Decision decide_path(pid_t caller, int call, const std::uint64_t *args) const;
    Decision decide_permissions(pid_t caller, int call, const std::uint64_t *args) const;
    bool in_own_group(pid_t process) const;
    std::string blocked(const std::string &what) const;
    void record(const std::string &attempt);

    int listener_;
    Policy policy_;
    AccessRules rules_;
    bool landlock_ = false; // this kernel has Landlock, so a refused path was really refused
    pid_t group_ = -1;
    std::vector<unsigned char> buffer_; // a struct seccomp_notif of the kernel's size
    std::map<int, int> calls_;          // system call number → what it is (attempt_monitor.cpp)
    std::vector<std::string> attempts_;
    std::size_t dropped_ = 0;
    std::set<pid_t> signalled_; // processes it tried to signal and was refused, since the last take
};

// The refused signals of one process as one attempt: "tried to signal process 1 (blocked)",
// "tried to signal 4,094 processes (the judge's process among them; blocked)"; `judge` is
// the judge's own PID, named where it was among them.
std::string signal_attempts(const std::set<pid_t> &signalled, pid_t judge);

} // namespace gemm::sandbox
