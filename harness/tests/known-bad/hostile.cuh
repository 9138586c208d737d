// What the hostile known-bad solutions share: where the decoys are, how a solution finds
// its ancestors, what they were started with and the judge's checkout, how it tries a
// file without destroying a user's data, and how it rewrites machine code in its own
// process. Nothing here is an attack by itself; each .cu says what it attempts.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <sstream>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace hostile {

// The test suite's decoys (harness/tests/known-bad/README.md): world-writable files in a
// world-writable folder, so only the sandbox can keep a solution running as nobody out.
constexpr const char *decoy_folder = "/tmp/gemm-judge-decoys";
constexpr const char *decoy_history = "/tmp/gemm-judge-decoys/history.sqlite";
constexpr const char *decoy_secret = "/tmp/gemm-judge-decoys/secret.case";
constexpr const char *decoy_testcase = "/tmp/gemm-judge-decoys/testcase.case";

// The whole file, or nullopt with errno set when it cannot be opened or read.
inline std::optional<std::string> read_file(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::nullopt;
    std::string text;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n > 0) {
            text.append(buffer, static_cast<size_t>(n));
            continue;
        }
        const int error = errno;
        ::close(fd);
        if (n < 0) {
            errno = error;
            return std::nullopt;
        }
        return text;
    }
}

// A process's arguments from /proc/<pid>/cmdline (NUL-separated), empty when unreadable.
inline std::vector<std::string> cmdline_of(const std::string &pid) {
    std::vector<std::string> args;
    const auto text = read_file("/proc/" + pid + "/cmdline");
    if (!text) {
        std::fprintf(stderr, "hostile: /proc/%s/cmdline: %s\n", pid.c_str(), std::strerror(errno));
        return args;
    }
    std::istringstream parts(*text);
    for (std::string arg; std::getline(parts, arg, '\0');) args.push_back(arg);
    return args;
}

// The parent and, where its status can be read, the grandparent.
inline std::vector<std::string> ancestors() {
    std::vector<std::string> pids = {std::to_string(getppid())};
    if (const auto status = read_file("/proc/" + pids[0] + "/status")) {
        const auto at = status->find("PPid:");
        if (at != std::string::npos) pids.push_back(std::to_string(std::strtol(status->c_str() + at + 5, nullptr, 10)));
    }
    return pids;
}

// The value after `option` in an ancestor's command line, or "".
inline std::string ancestor_option(const std::string &option) {
    for (const auto &pid : ancestors()) {
        const auto args = cmdline_of(pid);
        for (size_t i = 0; i + 1 < args.size(); ++i)
            if (args[i] == option) return args[i + 1];
    }
    return "";
}

// The symbolic target of a link such as /proc/self/exe, or "".
inline std::string link_target(const std::string &path) {
    char target[4096];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    return n > 0 ? std::string(target, static_cast<size_t>(n)) : std::string();
}

inline bool exists(const std::string &path) {
    struct stat st;
    return ::stat(path.c_str(), &st) == 0;
}

inline bool is_decoy(const std::string &path) { return path.rfind(std::string(decoy_folder) + "/", 0) == 0; }

// Tries to overwrite the start of `path` with `bytes`. Only a decoy gets them: any other
// file, should the sandbox let the open through, gets a write of nothing, so a sandbox
// failure shows in the verdict and in the decoys, never as a user's file damaged.
inline void try_overwrite(const std::string &path, const std::string &bytes) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        std::fprintf(stderr, "hostile: cannot open %s for writing: %s\n", path.c_str(), std::strerror(errno));
        return;
    }
    const ssize_t n = ::pwrite(fd, bytes.data(), is_decoy(path) ? bytes.size() : 0, 0);
    ::close(fd);
    std::fprintf(stderr, "hostile: SANDBOX FAILURE: opened %s for writing, wrote %zd bytes\n", path.c_str(), n);
}

// Tries to create `path` with `text`; removes it again unless it is in the decoys' folder.
inline void try_create(const std::string &path, const std::string &text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        std::fprintf(stderr, "hostile: cannot create %s: %s\n", path.c_str(), std::strerror(errno));
        return;
    }
    (void)!::write(fd, text.data(), text.size());
    ::close(fd);
    if (!is_decoy(path)) ::unlink(path.c_str());
    std::fprintf(stderr, "hostile: SANDBOX FAILURE: created %s\n", path.c_str());
}

// The judge's checkout, found from where the programs and the solution were started: the
// parent's executable, this process's, the current folder and every file mapped into this
// process, each walked up until a folder holds testcases/sample. "" if none does.
inline std::string find_checkout() {
    std::vector<std::string> starts = {link_target("/proc/" + std::to_string(getppid()) + "/exe"),
                                       link_target("/proc/self/exe")};
    char cwd[4096];
    if (::getcwd(cwd, sizeof cwd)) starts.push_back(cwd);
    std::istringstream maps(read_file("/proc/self/maps").value_or(""));
    for (std::string line; std::getline(maps, line);)
        if (line.find('/') != std::string::npos) starts.push_back(line.substr(line.find('/')));
    for (std::string dir : starts)
        for (; dir.size() > 1 && dir[0] == '/'; dir = dir.substr(0, dir.find_last_of('/')))
            if (exists(dir + "/testcases/sample")) return dir;
    return "";
}

// Overwrites `size` bytes of code at `where` in this process: the pages are made
// writable (and still executable, other threads may be running them), written and made
// read-execute again. Returns false when the kernel refused the change of protection.
inline bool patch_code(void *where, const void *bytes, size_t size) {
    const long page = sysconf(_SC_PAGESIZE);
    const auto start = reinterpret_cast<uintptr_t>(where) & ~static_cast<uintptr_t>(page - 1);
    const size_t length = reinterpret_cast<uintptr_t>(where) + size - start;
    void *pages = reinterpret_cast<void *>(start);
    if (::mprotect(pages, length, PROT_READ | PROT_WRITE | PROT_EXEC) != 0 &&
        ::mprotect(pages, length, PROT_READ | PROT_WRITE) != 0) {
        std::fprintf(stderr, "hostile: mprotect(%p): %s\n", where, std::strerror(errno));
        return false;
    }
    std::memcpy(where, bytes, size);
    ::mprotect(pages, length, PROT_READ | PROT_EXEC);
    return true;
}

// x86-64: `xor eax, eax; ret`, a function that returns 0 (cudaSuccess, CUDA_SUCCESS) at once.
constexpr unsigned char return_success[] = {0x31, 0xC0, 0xC3};

// x86-64: `movabs rax, target; jmp rax`, 12 bytes that send every caller to `target`.
inline bool redirect_code(void *from, const void *target) {
    unsigned char jump[12] = {0x48, 0xB8};
    const auto address = reinterpret_cast<uint64_t>(target);
    std::memcpy(jump + 2, &address, sizeof address);
    jump[10] = 0xFF;
    jump[11] = 0xE0;
    return patch_code(from, jump, sizeof jump);
}

} // namespace hostile
