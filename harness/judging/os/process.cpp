#include "judging/os/process.hpp"
#include "judging/os/interrupt.hpp"
#include "sandbox/confine.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gemm {

void close_inherited_descriptors(const std::vector<int> &keep) {
    // One close_range(2) per gap between the kept descriptors (Linux 5.9): one close() per
    // descriptor up to the limit cost 20 ms a child where the limit is 20000 (perf-notes, "The
    // second run within 90 s"). Where the kernel refuses it, every descriptor one by one.
#ifdef SYS_close_range
    unsigned from = 3;
    for (;;) {
        int next = -1; // the lowest kept descriptor from `from` on (no sorting: a forked child may not allocate)
        for (int fd : keep)
            if (fd >= 0 && static_cast<unsigned>(fd) >= from && (next < 0 || fd < next)) next = fd;
        const unsigned to = next < 0 ? ~0U : static_cast<unsigned>(next) - 1;
        if ((next < 0 || static_cast<unsigned>(next) > from) && syscall(SYS_close_range, from, to, 0U) != 0) break;
        if (next < 0) return;
        from = static_cast<unsigned>(next) + 1;
    }
#endif
    const long limit = std::min(sysconf(_SC_OPEN_MAX), 65536L);
    for (int fd = 3; fd < limit; ++fd)
        if (std::find(keep.begin(), keep.end(), fd) == keep.end()) close(fd);
}

namespace {

std::vector<char *> pointers_to(const std::vector<std::string> &words) {
    std::vector<char *> pointers;
    for (const auto &w : words) pointers.push_back(const_cast<char *>(w.c_str()));
    pointers.push_back(nullptr);
    return pointers;
}

constexpr int confinement_failed_status = 126;
constexpr char confinement_failed_message[] = "judge: the sandbox could not be applied to this program\n";

// Reads the child's output until it closes or `deadline` passes; false on the deadline.
bool read_output(int fd, std::chrono::steady_clock::time_point deadline, bool bounded, std::size_t limit,
                 std::string &output, std::size_t &dropped) {
    char buffer[4096];
    for (;;) {
        int wait_ms = -1;
        if (bounded) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return false;
            wait_ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
        }
        pollfd ready{fd, POLLIN, 0};
        const int polled = poll(&ready, 1, wait_ms);
        if (polled < 0 && errno == EINTR) continue;
        if (polled == 0) continue; // the deadline, checked above
        const ssize_t n = read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return true;
        const auto got = static_cast<std::size_t>(n);
        const std::size_t room = limit == 0 ? got : std::min(got, limit - std::min(limit, output.size()));
        output.append(buffer, room);
        dropped += got - room;
    }
}

} // namespace

std::vector<std::string> environment_with(const std::vector<std::string> &overrides) {
    std::vector<std::string> entries;
    for (char **e = environ; *e; ++e) {
        const std::string entry = *e;
        const auto name = entry.substr(0, entry.find('=') + 1);
        const bool replaced = std::any_of(overrides.begin(), overrides.end(),
                                          [&](const std::string &o) { return o.compare(0, name.size(), name) == 0; });
        if (!replaced) entries.push_back(entry);
    }
    entries.insert(entries.end(), overrides.begin(), overrides.end());
    return entries;
}

CapturedRun run_captured(const std::vector<std::string> &argv, const ChildSetup &setup) {
    CapturedRun run;
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return run;
    const auto environment = environment_with(setup.environment);
    auto args = pointers_to(argv);
    auto envp = pointers_to(environment);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        close(out[0]);
        close(out[1]);
        return run;
    }
    if (pid == 0) {
        become_group_that_dies_with_parent(parent); // an interrupt stops nvcc and its compilers too
        const int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, STDIN_FILENO);
        dup2(out[1], STDOUT_FILENO);
        dup2(out[1], STDERR_FILENO);
        if (setup.confinement && !setup.confinement->apply()) {
            const ssize_t ignored =
                write(STDERR_FILENO, confinement_failed_message, sizeof confinement_failed_message - 1);
            (void)ignored;
            _exit(confinement_failed_status);
        }
        close_inherited_descriptors();
        execvpe(args[0], args.data(), envp.data());
        _exit(127);
    }
    setpgid(pid, pid); // also from here: whichever runs first, the group exists
    const ChildGroupGuard stop_on_interrupt(pid);
    close(out[1]);
    const bool bounded = setup.wall_seconds > 0;
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::microseconds(static_cast<long long>(setup.wall_seconds * 1e6));
    std::size_t dropped = 0;
    if (!read_output(out[0], deadline, bounded, setup.output_limit, run.output, dropped)) {
        run.timed_out = true;
        kill(-pid, SIGKILL);
        // What a killed group held open closes with it; a process that left the group may not.
        read_output(out[0], std::chrono::steady_clock::now() + std::chrono::seconds(2), true, setup.output_limit,
                    run.output, dropped);
    }
    close(out[0]);
    if (dropped > 0) run.output += "\n[" + std::to_string(dropped) + " more bytes of output not shown]\n";
    // Still unreaped, nvcc's pid cannot be reused: killing its group now reaches only what
    // it left behind.
    siginfo_t info{};
    while (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
    }
    kill(-pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) {
        run.exit_code = WEXITSTATUS(status);
        run.started = run.exit_code != 127;
        run.confinement_failed = setup.confinement && run.exit_code == confinement_failed_status &&
                                 run.output.find(confinement_failed_message) != std::string::npos;
    } else if (WIFSIGNALED(status)) {
        run.signal = WTERMSIG(status);
        run.started = true;
    }
    return run;
}

std::string find_program(const std::string &program) {
    auto runnable = [](const std::string &path) {
        struct stat s {};
        return stat(path.c_str(), &s) == 0 && S_ISREG(s.st_mode) && access(path.c_str(), X_OK) == 0;
    };
    if (program.find('/') != std::string::npos) return runnable(program) ? program : "";
    const char *path = std::getenv("PATH");
    std::string folders = path ? path : "/usr/bin:/bin";
    for (std::size_t start = 0; start <= folders.size();) {
        const auto colon = folders.find(':', start);
        const auto folder = folders.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
        const std::string candidate = (folder.empty() ? "." : folder) + "/" + program;
        if (runnable(candidate)) return candidate;
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    return "";
}

std::string describe_wait_status(int wait_status) {
    if (WIFSIGNALED(wait_status)) {
        const int sig = WTERMSIG(wait_status);
        return "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
    if (WIFEXITED(wait_status)) return "exited with status " + std::to_string(WEXITSTATUS(wait_status));
    return "ended with wait status " + std::to_string(wait_status);
}

} // namespace gemm
