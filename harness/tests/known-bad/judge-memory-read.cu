// expect: RE
// cases: secret/04-primes
// detail: (blocked)
// Tries to read the memory of the processes around it, where the referee keeps the seed,
// the pristine inputs and the FP64 reference, and the judge its verdicts: opens its
// parent's /proc/<ppid>/maps and /proc/<ppid>/mem (reading the first readable mapping),
// and calls process_vm_readv on its parent and on every process it can find — /proc's
// listing if it may read it, else the process ids next to its own and its parent's.
// Then it computes C correctly.
// Why the judge must hold: another process's /proc entries are outside what Landlock
// lets the runner read, process_vm_readv is refused by seccomp (and ptrace access checks
// against an unprivileged uid), the judge names each attempt ("(blocked)"), and the case
// is RE.
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <dirent.h>
#include <set>
#include <sys/uio.h>

namespace {

// The start of `pid`'s first readable mapping, from its maps if they can be read.
uint64_t first_readable_address(pid_t pid) {
    const auto maps = hostile::read_file("/proc/" + std::to_string(pid) + "/maps");
    if (!maps) {
        std::fprintf(stderr, "hostile: /proc/%d/maps: %s\n", pid, std::strerror(errno));
        return 0x400000; // where a non-PIE executable starts
    }
    std::istringstream lines(*maps);
    for (std::string line; std::getline(lines, line);)
        if (line.find(" r") != std::string::npos) return std::strtoull(line.c_str(), nullptr, 16);
    return 0x400000;
}

void read_through_proc_mem(pid_t pid) {
    const std::string path = "/proc/" + std::to_string(pid) + "/mem";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        std::fprintf(stderr, "hostile: %s: %s\n", path.c_str(), std::strerror(errno));
        return;
    }
    char buffer[4096];
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, static_cast<off_t>(first_readable_address(pid)));
    std::fprintf(stderr, "hostile: SANDBOX FAILURE: opened %s, read %zd bytes\n", path.c_str(), n);
    ::close(fd);
}

void read_with_process_vm_readv(pid_t pid, uint64_t address) {
    char buffer[64];
    iovec local{buffer, sizeof buffer}, remote{reinterpret_cast<void *>(address), sizeof buffer};
    const ssize_t n = ::process_vm_readv(pid, &local, 1, &remote, 1, 0);
    if (n > 0) std::fprintf(stderr, "hostile: SANDBOX FAILURE: read %zd bytes of process %d\n", n, pid);
}

std::set<pid_t> processes() {
    std::set<pid_t> pids;
    if (DIR *proc = ::opendir("/proc")) {
        while (const dirent *entry = ::readdir(proc))
            if (const long pid = std::strtol(entry->d_name, nullptr, 10); pid > 0 && pids.size() < 4096)
                pids.insert(pid);
        ::closedir(proc);
    } else {
        std::fprintf(stderr, "hostile: /proc: %s\n", std::strerror(errno));
    }
    for (const pid_t around : {getpid(), getppid()})
        for (pid_t pid = around - 64; pid <= around + 64; ++pid)
            if (pid > 0) pids.insert(pid);
    pids.insert(1);
    pids.erase(getpid());
    return pids;
}

void read_other_processes() {
    const pid_t parent = getppid();
    read_through_proc_mem(parent);
    read_with_process_vm_readv(parent, first_readable_address(parent));
    for (const pid_t pid : processes()) read_with_process_vm_readv(pid, 0x400000);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tried = (read_other_processes(), true);
    (void)tried;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
