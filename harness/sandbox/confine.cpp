#include "sandbox/confine.hpp"
#include "sandbox/fd_passing.hpp"
#include "sandbox/identity.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace gemm::sandbox {

namespace {

std::atomic<bool> filesystem_restricted{false};

int thread_count() {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks) return 1;
    int count = 0;
    while (const dirent *entry = readdir(tasks))
        if (entry->d_name[0] != '.') ++count;
    closedir(tasks);
    return count;
}

std::string error_text() { return std::strerror(errno); }

void apply_landlock(const Policy &policy, Outcome &outcome) {
    const LandlockRuleset ruleset(policy, outcome.unconfined);
    if (!ruleset.ready()) return;
    const int threads = thread_count();
    if (!ruleset.enforce()) {
        outcome.unconfined.push_back("no Landlock: the kernel refused to enforce it: " + error_text());
        return;
    }
    filesystem_restricted = true;
    if (!ruleset.binds_all_threads() && threads > 1) {
        const int others = threads - 1;
        outcome.unconfined.push_back("Landlock binds only the calling thread on this kernel (ABI " +
                                     std::to_string(ruleset.abi()) + "; every thread needs ABI 8): " +
                                     (others == 1 ? std::string("1 thread started earlier is")
                                                  : std::to_string(others) + " threads started earlier are") +
                                     " outside it (restrict_filesystem before cuInit)");
    }
}

void apply_limits(const Limits &limits, Outcome &outcome) {
    const char *failed = nullptr;
    if (!ResourceLimits(limits).apply(&failed))
        outcome.unconfined.push_back(std::string(failed) + " not set: " + error_text());
}

void become_unprivileged(const Policy &policy, Outcome &outcome) {
    if (geteuid() != 0) return;
    if (!policy.run_as_uid) {
        outcome.unconfined.push_back("runs as root: no unprivileged user to switch to");
        return;
    }
    if (!switch_user(*policy.run_as_uid, policy.run_as_gid.value_or(nogroup_gid)))
        outcome.unconfined.push_back("runs as root: switching to user " + std::to_string(*policy.run_as_uid) +
                                     " failed: " + error_text());
}

void install_filter(const Policy &policy, int monitor_socket, Outcome &outcome) {
    const SeccompProgram filter(policy, monitor_socket >= 0, outcome.unconfined);
    if (!filter.ready()) return;
    const int listener = filter.install(true);
    if (listener < 0) {
        outcome.unconfined.push_back("no seccomp filter: the kernel refused it: " + error_text());
        return;
    }
    if (monitor_socket < 0) return;
    outcome.listener_handed_over = send_fd(monitor_socket, listener, "seccomp listener");
    const std::string why = outcome.listener_handed_over ? "" : error_text();
    close(listener);
    if (!outcome.listener_handed_over)
        outcome.unconfined.push_back("the seccomp listener could not be sent to the judge (" + why +
                                     "): the calls it decides now fail with ENOSYS");
}

} // namespace

Outcome restrict_filesystem(const Policy &policy) {
    Outcome outcome;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        outcome.unconfined.push_back("no_new_privs not set: " + error_text());
    apply_landlock(policy, outcome);
    return outcome;
}

Outcome confine_self(const Policy &policy, int monitor_socket) {
    Outcome outcome;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        outcome.unconfined.push_back("no_new_privs not set: " + error_text());
    apply_limits(policy.limits, outcome);
    if (!filesystem_restricted) apply_landlock(policy, outcome);
    become_unprivileged(policy, outcome);
    install_filter(policy, monitor_socket, outcome);
    return outcome;
}

ChildConfinement::ChildConfinement(const Policy &policy)
    : limits_(policy.limits), landlock_(policy, unconfined_), filter_(policy, false, unconfined_) {
    if (geteuid() == 0 && policy.run_as_uid) {
        switch_user_ = true;
        uid_ = *policy.run_as_uid;
        gid_ = policy.run_as_gid.value_or(nogroup_gid);
    }
}

bool ChildConfinement::apply() const noexcept {
    if (!limits_.apply()) return false;
    if (landlock_.ready() && !landlock_.enforce()) return false;
    if (switch_user_ && !switch_user(uid_, gid_)) return false;
    return !filter_.ready() || filter_.install(false) == 0;
}

} // namespace gemm::sandbox
