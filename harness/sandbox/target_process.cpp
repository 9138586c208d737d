#include "sandbox/target_process.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <vector>

namespace gemm::sandbox {

namespace {

std::string proc(pid_t pid, const std::string &rest) { return "/proc/" + std::to_string(pid) + "/" + rest; }

std::optional<std::string> link_text(const std::string &path) {
    char buffer[PATH_MAX];
    const ssize_t n = readlink(path.c_str(), buffer, sizeof buffer);
    if (n <= 0 || n >= static_cast<ssize_t>(sizeof buffer)) return std::nullopt;
    return std::string(buffer, static_cast<std::size_t>(n));
}

// The value of "Key:" in a /proc file of key-value lines.
std::optional<long> proc_field(const std::string &path, const std::string &key) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
        if (line.compare(0, key.size(), key) == 0) try {
                return std::stol(line.substr(key.size()));
            } catch (const std::exception &) {
                return std::nullopt;
            }
    return std::nullopt;
}

// process_vm_readv moves whole iovecs only: split at page boundaries, so a string that
// ends just before an unmapped page is still read up to there.
std::size_t read_pages(pid_t tid, std::uint64_t address, char *out, std::size_t size) {
    const std::uint64_t page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    std::vector<iovec> remote;
    for (std::uint64_t at = address; at < address + size;) {
        const std::uint64_t end = std::min<std::uint64_t>((at / page + 1) * page, address + size);
        remote.push_back({reinterpret_cast<void *>(at), static_cast<std::size_t>(end - at)});
        at = end;
    }
    iovec local{out, size};
    const ssize_t n = process_vm_readv(tid, &local, 1, remote.data(), remote.size(), 0);
    if (n >= 0) return static_cast<std::size_t>(n);
    // Where process_vm_readv is refused (an LSM), /proc/<pid>/mem asks the same question
    // of ptrace access but may still answer.
    const int mem = open(proc(tid, "mem").c_str(), O_RDONLY | O_CLOEXEC);
    if (mem < 0) return 0;
    const ssize_t m = pread(mem, out, size, static_cast<off_t>(address));
    close(mem);
    return m > 0 ? static_cast<std::size_t>(m) : 0;
}

constexpr int max_symlinks = 40; // the kernel's own limit (MAXSYMLINKS)

} // namespace

std::optional<std::string> read_string(pid_t tid, std::uint64_t address) {
    if (address == 0) return std::nullopt;
    std::vector<char> buffer(PATH_MAX);
    const std::size_t n = read_pages(tid, address, buffer.data(), buffer.size());
    const auto end = std::find(buffer.begin(), buffer.begin() + static_cast<long>(n), '\0');
    if (end == buffer.begin() + static_cast<long>(n)) return std::nullopt; // no terminator: not a path the kernel takes
    return std::string(buffer.begin(), end);
}

bool read_memory(pid_t tid, std::uint64_t address, void *out, std::size_t size) {
    return address != 0 && read_pages(tid, address, static_cast<char *>(out), size) == size;
}

std::optional<pid_t> process_group_of(pid_t pid) {
    std::ifstream in(proc(pid, "stat"));
    std::string text;
    if (!std::getline(in, text)) return std::nullopt;
    const auto close = text.rfind(')'); // the command name may hold spaces and parentheses
    if (close == std::string::npos) return std::nullopt;
    std::istringstream fields(text.substr(close + 1));
    std::string state;
    long parent = 0, group = 0;
    if (!(fields >> state >> parent >> group)) return std::nullopt;
    return static_cast<pid_t>(group);
}

std::optional<pid_t> thread_group_of(pid_t tid) {
    const auto tgid = proc_field(proc(tid, "status"), "Tgid:");
    return tgid ? std::optional<pid_t>(static_cast<pid_t>(*tgid)) : std::nullopt;
}

std::optional<pid_t> pidfd_target(pid_t tid, int fd) {
    const auto pid = proc_field(proc(tid, "fdinfo/" + std::to_string(fd)), "Pid:");
    return pid ? std::optional<pid_t>(static_cast<pid_t>(*pid)) : std::nullopt;
}

std::optional<std::string> resolve_path(pid_t tid, int dirfd, const std::string &path, bool follow_last) {
    if (path.empty()) return std::nullopt;
    const auto tgid = thread_group_of(tid);
    if (!tgid) return std::nullopt;
    std::string start = "/";
    if (path[0] != '/') {
        const auto base = link_text(dirfd == AT_FDCWD ? proc(tid, "cwd") : proc(tid, "fd/" + std::to_string(dirfd)));
        if (!base || (*base)[0] != '/') return std::nullopt;
        start = *base;
    }
    // Walk component by component, as the kernel does, so that the process's /proc/self
    // (not the judge's) is what a link to it means.
    std::vector<std::string> pending;
    auto push_components = [&pending](const std::string &text) {
        std::vector<std::string> parts;
        std::stringstream stream(text);
        for (std::string part; std::getline(stream, part, '/');)
            if (!part.empty() && part != ".") parts.push_back(part);
        pending.insert(pending.begin(), parts.begin(), parts.end());
    };
    push_components(path);
    std::string current = start == "/" ? "" : start;
    if (path[0] == '/') current.clear();
    int links = 0;
    while (!pending.empty()) {
        const std::string part = pending.front();
        pending.erase(pending.begin());
        if (part == "..") {
            current = current.substr(0, current.rfind('/'));
            continue;
        }
        std::string next = current + "/" + part;
        if (next == "/proc/self")
            next = "/proc/" + std::to_string(*tgid);
        else if (next == "/proc/thread-self")
            next = "/proc/" + std::to_string(*tgid) + "/task/" + std::to_string(tid);
        struct stat s {};
        if ((!pending.empty() || follow_last) && lstat(next.c_str(), &s) == 0 && S_ISLNK(s.st_mode)) {
            const auto target = link_text(next);
            if (!target || ++links > max_symlinks) return std::nullopt;
            if (next.rfind("/proc/", 0) == 0 && (*target)[0] != '/' && target->find(':') != std::string::npos)
                return std::nullopt; // a descriptor of a pipe, socket or anonymous inode: no path
            if ((*target)[0] == '/') current.clear();
            push_components(*target);
            continue;
        }
        current = next;
    }
    return current.empty() ? "/" : current;
}

} // namespace gemm::sandbox
