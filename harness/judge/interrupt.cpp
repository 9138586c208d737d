#include "judge/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <cstring>
#include <limits.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace gemm {

namespace {

// Fixed slots filled before a child starts, so the handler reads them without allocating
// or locking: it may run at any moment, on any thread.
constexpr int group_slots = 64;
constexpr int file_slots = 16;

std::atomic<pid_t> groups[group_slots];

struct FileSlot {
    std::atomic<bool> in_use{false};
    std::atomic<bool> armed{false};
    char path[PATH_MAX];
};
FileSlot files[file_slots];

const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};

// Only async-signal-safe calls: kill, unlink, sigaction, raise.
void clean_up_and_end(int signal_number) {
    for (auto &group : groups)
        if (const pid_t g = group.load(); g > 0) {
            kill(-g, SIGKILL);
            kill(g, SIGKILL);
        }
    for (auto &file : files)
        if (file.armed.load()) unlink(file.path);
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigaction(signal_number, &default_action, nullptr);
    raise(signal_number); // the judge ends by the signal, so its caller sees "interrupted"
}

} // namespace

void install_interrupt_cleanup() {
    struct sigaction action {};
    action.sa_handler = clean_up_and_end;
    sigemptyset(&action.sa_mask);
    for (int s : handled_signals) sigaddset(&action.sa_mask, s); // one cleanup at a time
    for (int s : handled_signals) sigaction(s, &action, nullptr);
}

void become_group_that_dies_with_parent(pid_t parent) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1); // the parent died before the request took effect
}

ChildGroupGuard::ChildGroupGuard(pid_t group) : slot_(-1) {
    for (int i = 0; i < group_slots; ++i) {
        pid_t free_slot = 0;
        if (groups[i].compare_exchange_strong(free_slot, group)) {
            slot_ = i;
            return;
        }
    }
}

ChildGroupGuard::~ChildGroupGuard() {
    if (slot_ >= 0) groups[slot_].store(0);
}

PartialFileGuard::PartialFileGuard(const std::string &path) : slot_(-1) {
    if (path.size() >= PATH_MAX) return;
    for (int i = 0; i < file_slots; ++i) {
        bool free_slot = false;
        if (!files[i].in_use.compare_exchange_strong(free_slot, true)) continue;
        std::memcpy(files[i].path, path.c_str(), path.size() + 1);
        files[i].armed.store(true); // after the copy: the handler never sees half a path
        slot_ = i;
        return;
    }
}

PartialFileGuard::~PartialFileGuard() {
    if (slot_ < 0) return;
    files[slot_].armed.store(false);
    files[slot_].in_use.store(false);
}

} // namespace gemm
