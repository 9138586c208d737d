#include "judging/os/interrupt.hpp"

#include <atomic>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace gemm {

namespace {

// The kernel's directory entry (getdents64), which glibc declares only for its own use.
struct linux_dirent64 {
    ino64_t d_ino;
    off64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

// Fixed slots filled before a child starts, so the handler reads them without allocating
// or locking: it may run at any moment, on any thread.
constexpr int group_slots = 64;
constexpr int file_slots = 16;

std::atomic<pid_t> groups[group_slots];

struct FileSlot {
    std::atomic<bool> in_use{false};
    std::atomic<bool> armed{false};
    bool folder = false;
    char path[PATH_MAX];
};
FileSlot files[file_slots];

// Removes what is inside the folder `fd` and below, with system calls alone (the handler
// may not use opendir, which allocates). Folders deeper than `depth` are left: nvcc's
// temporary files lie flat in its TMPDIR. Passes repeat while they remove something, as
// removing entries may move the others past the position reached.
void remove_contents(int fd, int depth) {
    alignas(8) char entries[4096];
    for (bool removed = true; removed;) {
        removed = false;
        lseek(fd, 0, SEEK_SET);
        for (long n; (n = syscall(SYS_getdents64, fd, entries, sizeof entries)) > 0;)
            for (long at = 0; at < n;) {
                const auto *entry = reinterpret_cast<const linux_dirent64 *>(entries + at);
                at += entry->d_reclen;
                const char *name = entry->d_name;
                if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
                if (entry->d_type != DT_DIR && unlinkat(fd, name, 0) == 0) {
                    removed = true;
                    continue;
                }
                const int child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (child < 0) continue;
                if (depth > 0) remove_contents(child, depth - 1);
                close(child);
                removed |= unlinkat(fd, name, AT_REMOVEDIR) == 0;
            }
    }
}

void remove_folder(const char *path) {
    const int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return;
    remove_contents(fd, 4);
    close(fd);
    // A runner's folder may be a tmpfs (runner_scratch.hpp): detached, its pages go with the
    // runner; on any other folder this fails and changes nothing.
    umount2(path, MNT_DETACH);
    rmdir(path);
}

const int handled_signals[] = {SIGINT, SIGTERM, SIGHUP};

// Only async-signal-safe calls: kill, unlink, the system calls of remove_folder, sigaction, raise.
void clean_up_and_end(int signal_number) {
    for (auto &group : groups)
        if (const pid_t g = group.load(); g > 0) {
            kill(-g, SIGKILL);
            kill(g, SIGKILL);
        }
    for (auto &file : files)
        if (file.armed.load()) {
            if (file.folder)
                remove_folder(file.path);
            else
                unlink(file.path);
        }
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

PartialFileGuard::PartialFileGuard(const std::string &path, Kind kind) : slot_(-1) {
    if (path.size() >= PATH_MAX) return;
    for (int i = 0; i < file_slots; ++i) {
        bool free_slot = false;
        if (!files[i].in_use.compare_exchange_strong(free_slot, true)) continue;
        std::memcpy(files[i].path, path.c_str(), path.size() + 1);
        files[i].folder = kind == Kind::folder;
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
