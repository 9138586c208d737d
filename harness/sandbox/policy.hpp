// What a confined process may do: the folders it reads, the one it writes, the devices it
// uses, whether it may open network sockets, whom it runs as and its resource limits. One
// Policy is given to both sides: the confined process enforces it (confine.hpp) and the
// judge's AttemptMonitor names what it refused (attempt_monitor.hpp).
#pragma once

#include <optional>
#include <string>
#include <sys/resource.h>
#include <sys/types.h>
#include <vector>

namespace gemm::sandbox {

// Each unset limit leaves the inherited one. RLIMIT_CORE is always 0: a core file of a
// process that held the judge's data would be written where the process cannot write.
struct Limits {
    std::optional<rlim_t> file_size_bytes = rlim_t(1) << 30; // RLIMIT_FSIZE: no file grows past this
    std::optional<rlim_t> open_files = 4096;                 // RLIMIT_NOFILE
    std::optional<rlim_t> processes;                         // RLIMIT_NPROC: counts the user's threads too
    std::optional<rlim_t> address_space_bytes;               // RLIMIT_AS: not for CUDA, which reserves TBs
    std::optional<rlim_t> cpu_seconds;                       // RLIMIT_CPU: per process, SIGXCPU past it
};

struct Policy {
    std::vector<std::string> readable; // read and execute beneath (folders or files)
    std::vector<std::string> writable; // read, write, create, remove beneath
    std::vector<std::string> devices;  // read, write and ioctl; a missing one is skipped
    bool allow_network = false;        // sockets of families other than AF_UNIX
    bool allow_unix_datagrams = false; // AF_UNIX SOCK_DGRAM sockets (sendto reaches any path)
    // Used only when the process runs as root: it becomes this user, so what Landlock does
    // not cover (chmod of its own files, say) is at most another user's.
    std::optional<uid_t> run_as_uid;
    std::optional<gid_t> run_as_gid;
    Limits limits;
};

constexpr uid_t nobody_uid = 65534;
constexpr gid_t nogroup_gid = 65534;

// The folders of the system's programs and libraries: /usr /lib /lib64 /bin /sbin /etc
// (those present).
std::vector<std::string> system_folders();

// What of /proc a process `pid` needs: its own /proc/<pid> (/proc/self resolves to it) and
// the global files the CUDA driver and glibc read: meminfo, cpuinfo, stat, sys/vm,
// driver/nvidia. Never another process's: /proc/<pid>/mem of the judge is memory it holds.
std::vector<std::string> proc_entries_for(pid_t pid);

} // namespace gemm::sandbox
