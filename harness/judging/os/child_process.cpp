#include "judging/os/child_process.hpp"
#include "judging/os/cpu_placement.hpp"
#include "judging/os/process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gemm {

bool ChildProcess::start(const ChildSpec &spec) {
    std::vector<std::string> argv = spec.argv, environment = spec.environment.value_or(std::vector<std::string>{});
    std::vector<char *> args, env;
    for (auto &a : argv) args.push_back(a.data());
    args.push_back(nullptr);
    for (auto &e : environment) env.push_back(e.data());
    env.push_back(nullptr);
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ == 0) {
        become_group_that_dies_with_parent(parent); // a kill reaches whatever it spawned
        const int null_fd = open("/dev/null", O_RDWR);
        const int output = spec.output_fd >= 0 ? spec.output_fd : null_fd;
        dup2(null_fd, STDIN_FILENO);
        dup2(output, STDOUT_FILENO);
        dup2(output, STDERR_FILENO);
        close_inherited_descriptors(spec.keep_fds);
        for (int fd : spec.keep_fds) fcntl(fd, F_SETFD, 0);
        // A refusal costs only the placement's benefit: the child runs unpinned, and says so.
        if (spec.cpu >= 0 && !pin_to_cpu(spec.cpu))
            dprintf(STDERR_FILENO, "%s: not pinned to CPU %d: %s\n", args[0], spec.cpu, strerror(errno));
        if (!spec.cwd.empty() && chdir(spec.cwd.c_str()) != 0) {
            dprintf(STDERR_FILENO, "cannot enter %s: %s\n", spec.cwd.c_str(), strerror(errno));
            _exit(127);
        }
        if (spec.environment)
            execvpe(args[0], args.data(), env.data());
        else
            execvp(args[0], args.data());
        dprintf(STDERR_FILENO, "cannot execute %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    if (pid_ < 0) return false;
    setpgid(pid_, pid_); // also from here: whichever runs first, the group exists
    stop_on_interrupt_.emplace(pid_);
    return true;
}

int ChildProcess::reap(double wait_s) {
    if (pid_ <= 0) return 0;
    int status = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
    for (;;) {
        const pid_t done = waitpid(pid_, &status, WNOHANG);
        if (done == pid_ || (done < 0 && errno != EINTR)) break;
        if (std::chrono::steady_clock::now() >= deadline) {
            kill(-pid_, SIGKILL);
            kill(pid_, SIGKILL);
            while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        usleep(1000);
    }
    kill(-pid_, SIGKILL); // anything it left behind in its group
    pid_ = -1;
    stop_on_interrupt_.reset();
    return status;
}

void ChildProcess::abandon() {
    kill_group();
    pid_ = -1;
    stop_on_interrupt_.reset();
}

void ChildProcess::kill_group() {
    if (pid_ <= 0) return;
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
}

void ChildProcess::stop() {
    if (pid_ <= 0) return;
    kill_group();
    reap(5);
}

} // namespace gemm
