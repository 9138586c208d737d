#include "sandbox/seccomp_filter.hpp"

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace gemm::sandbox {

namespace {

// A system call by name, with its number for the few newer than libseccomp 2.5.4 (the
// same on every architecture: asm-generic numbering, Linux 6.6 and later).
struct Call {
    const char *name;
    int number_if_unknown = 0;
};

// Named by the monitor, which always refuses them. connect too: Landlock does not cover a
// Unix socket's path, and one of the user's (the session bus, docker.sock) would run
// commands outside the sandbox; the address is in memory, so it cannot be checked safely,
// only refused. The runner's own sockets are connected before it confines itself.
const Call asked_and_refused[] = {
    {"connect"},     {"ptrace"},          {"process_vm_readv"}, {"process_vm_writev"}, {"mount"},
    {"umount2"},     {"pivot_root"},      {"chroot"},           {"unshare"},           {"setns"},
    {"bpf"},         {"perf_event_open"}, {"keyctl"},           {"add_key"},           {"request_key"},
    {"userfaultfd"}, {"io_uring_setup"},  {"pidfd_getfd"},      {"open_by_handle_at"},
};

// Decided by the monitor: a signal is let through only within the process group; a path
// call always goes on to Landlock, which enforces, and the monitor names what it refuses.
const Call signals[] = {
    {"kill"}, {"tkill"}, {"tgkill"}, {"rt_sigqueueinfo"}, {"rt_tgsigqueueinfo"}, {"pidfd_send_signal"}};
// Decided by the monitor: joining the process group it is in is let through; leaving it is
// refused, since the judge stops the whole group between calls and a process outside it
// would run on (burning the CPU the baseline's calls are timed on) while it is stopped.
const Call group_calls[] = {{"setsid"}, {"setpgid"}};
const Call path_calls[] = {{"open"},      {"openat"},   {"openat2"}, {"creat"},    {"truncate"},
                           {"unlink"},    {"unlinkat"}, {"rmdir"},   {"rename"},   {"renameat"},
                           {"renameat2"}, {"mkdir"},    {"mkdirat"}, {"mknod"},    {"mknodat"},
                           {"link"},      {"linkat"},   {"symlink"}, {"symlinkat"}};
// Landlock does not cover permissions and owners: refused, since the process could otherwise
// open a file of its user's to everyone. Without a monitor (nvcc, whose linker sets the
// library's mode) they are left alone: a compiler runs no code of the solution's.
const Call permission_calls[] = {{"chmod"}, {"fchmod"}, {"fchmodat"}, {"fchmodat2", 452},
                                 {"chown"}, {"fchown"}, {"lchown"},   {"fchownat"}};

// Refused without a word: nothing a solution or a compiler does needs them, and most need
// privileges the process no longer has anyway.
const char *const refused = "seccomp kexec_load kexec_file_load init_module finit_module delete_module reboot swapon "
                            "swapoff acct quotactl quotactl_fd iopl ioperm sethostname setdomainname syslog vhangup "
                            "fanotify_init name_to_handle_at move_mount open_tree fsopen fsconfig fsmount fspick "
                            "mount_setattr settimeofday clock_settime clock_adjtime adjtimex io_uring_enter "
                            "io_uring_register setxattr lsetxattr fsetxattr removexattr lremovexattr fremovexattr "
                            "process_madvise";
const Call refused_newer_than_libseccomp[] = {
    {"setxattrat", 463}, {"removexattrat", 466}, {"open_tree_attr", 467}, {"file_setattr", 469}};

constexpr unsigned long namespace_flags[] = {CLONE_NEWNS,  CLONE_NEWUTS, CLONE_NEWIPC,   CLONE_NEWUSER,
                                             CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWCGROUP};

class FilterBuilder {
  public:
    explicit FilterBuilder(std::vector<std::string> &unconfined) : unconfined_(unconfined) {
        ctx_ = seccomp_init(SCMP_ACT_ALLOW);
        if (ctx_) seccomp_attr_set(ctx_, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS); // int 0x80, x32
    }
    ~FilterBuilder() {
        if (ctx_) seccomp_release(ctx_);
    }
    bool ok() const { return ctx_ != nullptr && ok_; }

    void add(std::uint32_t action, const Call &call, std::initializer_list<scmp_arg_cmp> args = {}) {
        if (!ctx_) return;
        int number = seccomp_syscall_resolve_name(call.name);
        if (number == __NR_SCMP_ERROR) {
            if (call.number_if_unknown == 0) return; // newer than both libseccomp and this list
            number = call.number_if_unknown;
        }
        const int rc = seccomp_rule_add_array(ctx_, action, number, static_cast<unsigned>(args.size()),
                                              args.size() ? args.begin() : nullptr);
        if (rc != 0 && number >= 0) { // a negative number is a call this architecture lacks
            ok_ = false;
            unconfined_.push_back(std::string("seccomp: no rule for ") + call.name + ": " + std::strerror(-rc));
        }
    }
    void add_all(std::uint32_t action, const Call *begin, const Call *end) {
        for (const Call *c = begin; c != end; ++c) add(action, *c);
    }

    // The BPF program: libseccomp 2.5 exports only to a descriptor.
    std::vector<sock_filter> program() {
        std::vector<sock_filter> bpf;
        const int fd = memfd_create("seccomp-bpf", MFD_CLOEXEC);
        if (fd < 0 || seccomp_export_bpf(ctx_, fd) != 0) {
            if (fd >= 0) close(fd);
            unconfined_.push_back("seccomp: the filter could not be exported");
            return bpf;
        }
        const off_t size = lseek(fd, 0, SEEK_END);
        bpf.resize(static_cast<std::size_t>(size) / sizeof(sock_filter));
        if (pread(fd, bpf.data(), static_cast<std::size_t>(size), 0) != size) bpf.clear();
        close(fd);
        return bpf;
    }

  private:
    scmp_filter_ctx ctx_ = nullptr;
    bool ok_ = true;
    std::vector<std::string> &unconfined_;
};

template <std::size_t n> const Call *end_of(const Call (&calls)[n]) { return calls + n; }

} // namespace

SeccompProgram::SeccompProgram(const Policy &policy, bool with_monitor, std::vector<std::string> &unconfined)
    : with_monitor_(with_monitor) {
    std::vector<std::string> problems;
    FilterBuilder filter(problems);
    const std::uint32_t refuse = SCMP_ACT_ERRNO(EPERM);
    const std::uint32_t ask = with_monitor ? SCMP_ACT_NOTIFY : refuse;

    filter.add_all(ask, std::begin(asked_and_refused), end_of(asked_and_refused));
    if (!policy.allow_network) filter.add(ask, {"socket"}, {SCMP_A0(SCMP_CMP_NE, AF_UNIX)});
    // personality(0xffffffff) only asks; any other value changes how programs it starts run.
    filter.add(ask, {"personality"}, {SCMP_A0(SCMP_CMP_NE, 0xffffffffu)});
    if (with_monitor) {
        filter.add_all(ask, std::begin(signals), end_of(signals));
        filter.add_all(ask, std::begin(group_calls), end_of(group_calls));
        // A Unix datagram socket reaches any socket at a path through sendto's own address,
        // connect never called (Landlock does not cover a socket's path): refused where it
        // is made. The runner's own sockets are stream and packet ones, made before.
        if (!policy.allow_unix_datagrams)
            filter.add(ask, {"socket"}, {SCMP_A0(SCMP_CMP_EQ, AF_UNIX), SCMP_A1(SCMP_CMP_MASKED_EQ, 0xf, SOCK_DGRAM)});
        filter.add_all(ask, std::begin(path_calls), end_of(path_calls));
        filter.add_all(ask, std::begin(permission_calls), end_of(permission_calls));
    }
    std::istringstream names(refused);
    for (std::string name; names >> name;) filter.add(refuse, {name.c_str()});
    filter.add_all(refuse, std::begin(refused_newer_than_libseccomp), end_of(refused_newer_than_libseccomp));
    filter.add(refuse, {"prctl"}, {SCMP_A0(SCMP_CMP_EQ, PR_SET_SECCOMP)});
    // Typing into the terminal the judge was started from runs commands after it ends.
    filter.add(refuse, {"ioctl"}, {SCMP_A1(SCMP_CMP_EQ, TIOCSTI)});
    for (unsigned long flag : namespace_flags) filter.add(refuse, {"clone"}, {SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag)});
    // clone3 passes its flags in memory, out of a filter's sight: without it glibc uses clone.
    filter.add(SCMP_ACT_ERRNO(ENOSYS), {"clone3"});

    if (filter.ok()) program_ = filter.program();
    if (program_.empty()) unconfined.push_back("no seccomp filter: libseccomp could not build it");
    for (auto &p : problems) unconfined.push_back(std::move(p));
}

int SeccompProgram::install(bool all_threads) const noexcept {
    if (program_.empty()) {
        errno = EINVAL;
        return -1;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
    sock_fprog prog{static_cast<unsigned short>(program_.size()), const_cast<sock_filter *>(program_.data())};
    unsigned long flags = 0;
    if (with_monitor_) flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER;
    if (all_threads) flags |= SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_TSYNC_ESRCH;
    const long result = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
    if (result < 0) return -1;
    return with_monitor_ ? static_cast<int>(result) : 0;
}

} // namespace gemm::sandbox
