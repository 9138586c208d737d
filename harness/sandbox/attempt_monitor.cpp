#include "sandbox/attempt_monitor.hpp"
#include "sandbox/landlock.hpp"
#include "sandbox/target_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

namespace gemm::sandbox {

namespace {

enum Kind {
    socket_call,
    connect_call,
    ptrace_call,
    memory_read,
    memory_write,
    kill_call,     // kill(pid)
    thread_signal, // tkill(tid), tgkill(tgid, …), rt_sigqueueinfo(tgid, …), rt_tgsigqueueinfo(tgid, …)
    pidfd_signal,
    personality_call,
    setsid_call,
    setpgid_call,
    chmod_call,    // chmod(path)
    chmod_at_call, // fchmodat(dirfd, path), fchmodat2
    fchmod_call,   // fchmod(fd)
    chown_call,    // chown(path), lchown(path)
    chown_at_call, // fchownat(dirfd, path)
    fchown_call,   // fchown(fd)
    path_call,     // + index into path_calls
};

// What a call on a path does, and where its arguments are (-1: none; the working folder).
enum class Operation { open, create, remove, write, move };
struct PathCall {
    const char *name;
    Operation operation;
    int dirfd = -1, path = 0, flags = -1; // flags: open's flags, or -2: openat2's struct open_how
    int dirfd2 = -1, path2 = -1;          // move: where to
};
const PathCall path_calls[] = {
    {"open", Operation::open, -1, 0, 1},
    {"openat", Operation::open, 0, 1, 2},
    {"openat2", Operation::open, 0, 1, -2},
    {"creat", Operation::open, -1, 0, -3}, // -3: O_CREAT | O_WRONLY | O_TRUNC
    {"truncate", Operation::write, -1, 0},
    {"unlink", Operation::remove, -1, 0},
    {"unlinkat", Operation::remove, 0, 1},
    {"rmdir", Operation::remove, -1, 0},
    {"rename", Operation::move, -1, 0, -1, -1, 1},
    {"renameat", Operation::move, 0, 1, -1, 2, 3},
    {"renameat2", Operation::move, 0, 1, -1, 2, 3},
    {"mkdir", Operation::create, -1, 0},
    {"mkdirat", Operation::create, 0, 1},
    {"mknod", Operation::create, -1, 0},
    {"mknodat", Operation::create, 0, 1},
    {"link", Operation::create, -1, 1}, // the new name is what is created
    {"linkat", Operation::create, 2, 3},
    {"symlink", Operation::create, -1, 1},
    {"symlinkat", Operation::create, 1, 2},
};

struct NamedKind {
    const char *name;
    int kind;
    int number_if_unknown = 0;
};
const NamedKind kinds[] = {
    {"socket", socket_call},
    {"connect", connect_call},
    {"ptrace", ptrace_call},
    {"process_vm_readv", memory_read},
    {"process_vm_writev", memory_write},
    {"kill", kill_call},
    {"tkill", thread_signal},
    {"tgkill", thread_signal},
    {"rt_sigqueueinfo", thread_signal},
    {"rt_tgsigqueueinfo", thread_signal},
    {"pidfd_send_signal", pidfd_signal},
    {"personality", personality_call},
    {"setsid", setsid_call},
    {"setpgid", setpgid_call},
    {"chmod", chmod_call},
    {"fchmodat", chmod_at_call},
    {"fchmodat2", chmod_at_call, 452},
    {"fchmod", fchmod_call},
    {"chown", chown_call},
    {"lchown", chown_call},
    {"fchownat", chown_at_call},
    {"fchown", fchown_call},
};

int as_int(std::uint64_t arg) { return static_cast<int>(static_cast<std::uint32_t>(arg)); }

std::string parent_of(const std::string &path) {
    const auto slash = path.rfind('/');
    return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

bool exists(const std::string &path) {
    struct stat s {};
    return lstat(path.c_str(), &s) == 0;
}

std::string socket_kind(int family) {
    switch (family) {
    case AF_INET:
    case AF_INET6: return "a network socket";
    case AF_NETLINK: return "a netlink socket";
    case AF_PACKET: return "a raw packet socket";
    default: return "a socket of family " + std::to_string(family);
    }
}

// What connect(fd, address, length) aimed at, for the message: the socket's path or name.
std::string socket_address(pid_t caller, const std::uint64_t *args) {
    sockaddr_un address{};
    const auto length = std::min<std::uint64_t>(args[2], sizeof address);
    if (length <= sizeof address.sun_family || !read_memory(caller, args[1], &address, length)) return "a socket";
    if (address.sun_family != AF_UNIX) return "a network address";
    const std::size_t name_length = length - offsetof(sockaddr_un, sun_path);
    if (address.sun_path[0] == '\0') // abstract: a name, not a file
        return "the abstract socket @" +
               std::string(address.sun_path + 1, strnlen(address.sun_path + 1, name_length - 1));
    return "the socket " + std::string(address.sun_path, strnlen(address.sun_path, name_length));
}

} // namespace

AttemptMonitor::AttemptMonitor(int listener_fd, Policy policy, pid_t confined)
    : listener_(listener_fd), policy_(std::move(policy)), rules_(policy_), landlock_(landlock_abi() > 0) {
    group_ = process_group_of(confined).value_or(-1);
    seccomp_notif_sizes sizes{};
    const bool sized = syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) == 0;
    buffer_.resize(std::max<std::size_t>(sized ? sizes.seccomp_notif : 0, sizeof(seccomp_notif)));
    for (const auto &k : kinds) {
        int number = seccomp_syscall_resolve_name(k.name);
        if (number == __NR_SCMP_ERROR) number = k.number_if_unknown;
        if (number > 0) calls_[number] = k.kind;
    }
    for (std::size_t i = 0; i < std::size(path_calls); ++i) {
        const int number = seccomp_syscall_resolve_name(path_calls[i].name);
        if (number >= 0) calls_[number] = path_call + static_cast<int>(i);
    }
}

AttemptMonitor::~AttemptMonitor() {
    if (listener_ >= 0) close(listener_);
}

void AttemptMonitor::handle_ready() {
    // One pending call per waiting thread; the bound keeps a flood from starving the caller.
    for (int handled = 0; handled < 256; ++handled) {
        pollfd ready{listener_, POLLIN, 0};
        if (poll(&ready, 1, 0) <= 0 || (ready.revents & POLLIN) == 0) return;
        std::fill(buffer_.begin(), buffer_.end(), 0); // the kernel wants it zeroed
        auto *notification = reinterpret_cast<seccomp_notif *>(buffer_.data());
        if (ioctl(listener_, SECCOMP_IOCTL_NOTIF_RECV, notification) != 0) {
            if (errno == EINTR || errno == ENOENT) continue; // the caller was interrupted or died meanwhile
            return;
        }
        const Decision decision = decide(*notification);
        // What was read from the process means something only if it is still the same call.
        std::uint64_t id = notification->id;
        if (ioctl(listener_, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) != 0) continue;
        if (!decision.attempt.empty()) record(decision.attempt);
        if (decision.signalled > 0) signalled_.insert(decision.signalled);
        seccomp_notif_resp response{};
        response.id = notification->id;
        if (decision.allow)
            response.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        else
            response.error = -decision.error;
        ioctl(listener_, SECCOMP_IOCTL_NOTIF_SEND, &response); // ENOENT: it died in between
    }
}

std::vector<std::string> AttemptMonitor::take_attempts() {
    std::vector<std::string> taken = std::move(attempts_);
    if (!signalled_.empty()) taken.push_back(signal_attempts(signalled_, getpid()));
    if (dropped_ > 0) taken.push_back("… and " + std::to_string(dropped_) + " more attempts");
    attempts_.clear();
    signalled_.clear();
    dropped_ = 0;
    return taken;
}

std::string signal_attempts(const std::set<pid_t> &signalled, pid_t judge) {
    if (signalled.size() == 1) {
        const pid_t only = *signalled.begin();
        return only == judge ? "tried to signal the judge's process (blocked)"
                             : "tried to signal process " + std::to_string(only) + " (blocked)";
    }
    // 4094 → "4,094": a count read at a glance.
    std::string count = std::to_string(signalled.size());
    for (int at = static_cast<int>(count.size()) - 3; at > 0; at -= 3) count.insert(static_cast<std::size_t>(at), ",");
    return "tried to signal " + count + " processes (" +
           (signalled.count(judge) ? "the judge's process among them; " : "") + "blocked)";
}

void AttemptMonitor::record(const std::string &attempt) {
    if (std::find(attempts_.begin(), attempts_.end(), attempt) != attempts_.end()) return;
    if (attempts_.size() < max_attempts)
        attempts_.push_back(attempt);
    else
        ++dropped_;
}

std::string AttemptMonitor::blocked(const std::string &what) const {
    return "tried to " + what + (landlock_ ? " (blocked)" : " (not blocked: this kernel has no Landlock)");
}

bool AttemptMonitor::in_own_group(pid_t process) const {
    const auto group = process_group_of(process);
    return group && *group == group_;
}

AttemptMonitor::Decision AttemptMonitor::decide(const seccomp_notif &n) const {
    const pid_t caller = static_cast<pid_t>(n.pid);
    std::uint64_t args[6];
    std::copy(std::begin(n.data.args), std::end(n.data.args), args);
    const auto found = calls_.find(n.data.nr);
    const int kind = found == calls_.end() ? -1 : found->second;
    const Decision refuse{false, EPERM, ""};
    switch (kind) {
    case socket_call:
        if (as_int(args[0]) == AF_UNIX && (as_int(args[1]) & 0xf) == SOCK_DGRAM && !policy_.allow_unix_datagrams)
            return {false, EPERM, "tried to open a Unix datagram socket (blocked)"};
        if (as_int(args[0]) == AF_UNIX) return {true, 0, ""};
        return {false, EPERM, "tried to open " + socket_kind(as_int(args[0])) + " (blocked)"};
    case connect_call: return {false, EPERM, "tried to connect to " + socket_address(caller, args) + " (blocked)"};
    case ptrace_call:
        if (args[0] == PTRACE_TRACEME) return {false, EPERM, "tried to be traced (PTRACE_TRACEME, blocked)"};
        return {false, EPERM, "tried to ptrace process " + std::to_string(as_int(args[1])) + " (blocked)"};
    case memory_read: return {false, EPERM, "tried to read another process's memory (process_vm_readv, blocked)"};
    case memory_write: return {false, EPERM, "tried to write another process's memory (process_vm_writev, blocked)"};
    case kill_call:
    case thread_signal:
    case pidfd_signal: return decide_signal(caller, kind, args);
    case personality_call: return {false, EPERM, "tried to change its execution domain (personality, blocked)"};
    case setsid_call: return {false, EPERM, "tried to leave its process group (setsid, blocked)"};
    case setpgid_call: {
        // setpgid(pid, pgid): 0 for pid is the caller, 0 for pgid is the process's own id.
        const pid_t process = as_int(args[0]) == 0 ? caller : as_int(args[0]);
        const pid_t group = as_int(args[1]) == 0 ? process : as_int(args[1]);
        if (group == group_) return {true, 0, ""};
        return {false, EPERM, "tried to leave its process group (setpgid, blocked)"};
    }
    case chmod_call:
    case chmod_at_call:
    case fchmod_call:
    case chown_call:
    case chown_at_call:
    case fchown_call: return decide_permissions(caller, kind, args);
    default: break;
    }
    if (kind >= path_call) return decide_path(caller, kind - path_call, args);
    // A call the filter asks about that has no rule here is refused: the filter and this
    // table are kept together, and a gap between them must fail closed.
    char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, n.data.nr);
    Decision decision = refuse;
    decision.attempt =
        "tried to call " + std::string(name ? name : "system call " + std::to_string(n.data.nr)) + " (blocked)";
    free(name);
    return decision;
}

AttemptMonitor::Decision AttemptMonitor::decide_signal(pid_t caller, int kind, const std::uint64_t *args) const {
    if (kind == kill_call) {
        const int pid = as_int(args[0]);
        if (pid == -1) return {false, EPERM, "tried to signal every process it may (blocked)"};
        if (pid == 0) {
            if (in_own_group(caller)) return {true, 0, ""};
            return {false, EPERM, "tried to signal the process group it moved to (blocked)"};
        }
        if (pid < 0) {
            if (-pid == group_) return {true, 0, ""};
            return {false, EPERM, "tried to signal process group " + std::to_string(-pid) + " (blocked)"};
        }
    }
    std::optional<pid_t> target;
    if (kind == pidfd_signal)
        target = pidfd_target(caller, as_int(args[0]));
    else
        target = as_int(args[0]);
    if (!target || !process_group_of(*target)) return {false, ESRCH, ""}; // no such process: as the kernel says
    if (in_own_group(*target)) return {true, 0, ""};
    return {false, EPERM, "", *target};
}

AttemptMonitor::Decision AttemptMonitor::decide_permissions(pid_t caller, int kind, const std::uint64_t *args) const {
    std::optional<std::string> path;
    if (kind == fchmod_call || kind == fchown_call) {
        path = resolve_path(caller, AT_FDCWD, "/proc/self/fd/" + std::to_string(as_int(args[0])));
    } else {
        const bool at = kind == chmod_at_call || kind == chown_at_call; // a folder first, then the path
        if (const auto text = read_string(caller, args[at ? 1 : 0]))
            path = resolve_path(caller, at ? as_int(args[0]) : AT_FDCWD, *text);
    }
    const bool mode = kind == chmod_call || kind == chmod_at_call || kind == fchmod_call;
    const std::string what = (mode ? "change the permissions of " : "change the owner of ") + path.value_or("a file");
    return {false, EPERM, "tried to " + what + " (blocked)"};
}

AttemptMonitor::Decision AttemptMonitor::decide_path(pid_t caller, int index, const std::uint64_t *args) const {
    const PathCall &call = path_calls[index];
    const Decision go_on{true, 0, ""};
    const auto text = read_string(caller, args[call.path]);
    if (!text) return go_on;
    const int dirfd = call.dirfd < 0 ? AT_FDCWD : as_int(args[call.dirfd]);

    if (call.operation == Operation::open) {
        int flags = O_RDONLY;
        if (call.flags >= 0) flags = as_int(args[call.flags]);
        if (call.flags == -3) flags = O_CREAT | O_WRONLY | O_TRUNC;
        if (call.flags == -2) {
            open_how how{};
            if (!read_memory(caller, args[2], &how, sizeof how)) return go_on;
            flags = static_cast<int>(how.flags);
        }
        if ((flags & O_PATH) != 0) return go_on; // Landlock does not check a path-only open
        const auto path = resolve_path(caller, dirfd, *text, (flags & O_NOFOLLOW) == 0);
        if (!path) return go_on;
        if (!exists(*path)) {
            if ((flags & O_CREAT) == 0 || rules_.may_change_entries_of(parent_of(*path))) return go_on;
            return {true, 0, blocked("create " + *path)};
        }
        const bool writes = (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC) != 0;
        if (writes && !rules_.may_write(*path)) return {true, 0, blocked("write " + *path)};
        if (!writes && !rules_.may_read(*path)) return {true, 0, blocked("read " + *path)};
        return go_on;
    }
    const bool follow = call.operation == Operation::write;
    const auto path = resolve_path(caller, dirfd, *text, follow);
    if (!path) return go_on;
    switch (call.operation) {
    case Operation::write:
        if (exists(*path) && !rules_.may_write(*path)) return {true, 0, blocked("write " + *path)};
        return go_on;
    case Operation::create:
        if (!exists(*path) && !rules_.may_change_entries_of(parent_of(*path)))
            return {true, 0, blocked("create " + *path)};
        return go_on;
    case Operation::remove:
        if (exists(*path) && !rules_.may_change_entries_of(parent_of(*path)))
            return {true, 0, blocked("remove " + *path)};
        return go_on;
    case Operation::move: {
        const auto to_text = read_string(caller, args[call.path2]);
        const int dirfd2 = call.dirfd2 < 0 ? AT_FDCWD : as_int(args[call.dirfd2]);
        const auto to = to_text ? resolve_path(caller, dirfd2, *to_text, false) : std::nullopt;
        if (!to || !exists(*path)) return go_on;
        if (!rules_.may_change_entries_of(parent_of(*path)) || !rules_.may_change_entries_of(parent_of(*to)))
            return {true, 0, blocked("move " + *path + " to " + *to)};
        return go_on;
    }
    case Operation::open: break;
    }
    return go_on;
}

} // namespace gemm::sandbox
