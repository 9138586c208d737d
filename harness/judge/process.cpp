#include "judge/process.hpp"
#include "judge/interrupt.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gemm {

void close_inherited_descriptors(const std::vector<int> &keep) {
    const long limit = std::min(sysconf(_SC_OPEN_MAX), 65536L);
    for (int fd = 3; fd < limit; ++fd)
        if (std::find(keep.begin(), keep.end(), fd) == keep.end()) close(fd);
}

CapturedRun run_captured(const std::vector<std::string> &argv) {
    CapturedRun run;
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0) return run;
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
        close_inherited_descriptors();
        std::vector<char *> args;
        for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
        args.push_back(nullptr);
        execvp(args[0], args.data());
        _exit(127);
    }
    setpgid(pid, pid); // also from here: whichever runs first, the group exists
    const ChildGroupGuard stop_on_interrupt(pid);
    close(out[1]);
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(out[0], buffer, sizeof buffer);
        if (n > 0)
            run.output.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    close(out[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) {
        run.exit_code = WEXITSTATUS(status);
        run.started = run.exit_code != 127;
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
