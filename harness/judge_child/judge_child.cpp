#include "judge_child/judge_child.hpp"
#include "judging/os/child_process.hpp"
#include "judging/os/process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <optional>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace gemm::judge_child {

namespace {

// After the judge is killed for its time, how long its pipes may stay open (a process it
// started outside its group holding them) before the front end stops reading.
constexpr double drain_after_kill_s = 5;

struct Pipe {
    int read = -1, write = -1;
    Pipe() {
        int fds[2];
        if (pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("cannot make a pipe for the judge");
        read = fds[0];
        write = fds[1];
    }
    ~Pipe() {
        if (read >= 0) close(read);
        if (write >= 0) close(write);
    }
    Pipe(const Pipe &) = delete;
    Pipe &operator=(const Pipe &) = delete;
    void close_write() {
        close(write);
        write = -1;
    }
};

// Complete lines out of what a pipe gave, the rest kept for the next read.
void split_lines(std::string &pending, const std::function<void(const std::string &)> &on_line) {
    for (std::size_t end; (end = pending.find('\n')) != std::string::npos;) {
        if (on_line) on_line(pending.substr(0, end));
        pending.erase(0, end + 1);
    }
}

void keep_tail(std::string &output, const char *bytes, std::size_t n, std::size_t limit) {
    output.append(bytes, n);
    if (limit > 0 && output.size() > limit) output.erase(0, output.size() - limit);
}

using Clock = std::chrono::steady_clock;

// Milliseconds poll may wait before `deadline`; -1: no deadline.
int poll_wait_ms(const std::optional<Clock::time_point> &deadline) {
    if (!deadline) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
    return static_cast<int>(std::clamp<long long>(left, 0, 1000));
}

} // namespace

std::vector<std::string> quick_run_selection() { return {"--selection", "quick"}; }

std::vector<std::string> judge_command_line(const std::string &program, JudgeMode mode, const std::string &solution,
                                            const std::vector<std::string> &options) {
    std::vector<std::string> argv{program};
    if (mode == JudgeMode::rank) argv.push_back("rank");
    argv.push_back(solution);
    argv.insert(argv.end(), options.begin(), options.end());
    return argv;
}

int JudgeEnding::shell_status() const {
    if (!started) return -1;
    return signal ? 128 + signal : exit_status;
}

JudgeEnding run_judge(const JudgeCall &call, const JudgeListener &listener) {
    JudgeEnding ending;
    ending.limit_s = call.timeout_s;
    Pipe console;
    std::optional<Pipe> stream;
    ChildSpec spec;
    spec.argv = call.argv;
    if (listener.stream_line) {
        stream.emplace();
        spec.argv.insert(spec.argv.end(), {"--stream", "/dev/fd/" + std::to_string(stream->write)});
        spec.keep_fds = {stream->write};
    }
    spec.output_fd = console.write;
    if (!call.environment.empty()) spec.environment = environment_with(call.environment);
    ChildProcess judge;
    if (!judge.start(spec)) {
        ending.started = false;
        ending.output = "cannot start the judge " + (call.argv.empty() ? std::string() : call.argv.front());
        return ending;
    }
    if (stream) stream->close_write();
    console.close_write();
    if (listener.started) listener.started(judge.pid());

    std::optional<Clock::time_point> deadline;
    if (call.timeout_s > 0)
        deadline =
            Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(call.timeout_s));
    std::string stream_pending, console_pending;
    pollfd fds[2] = {{console.read, POLLIN, 0}, {stream ? stream->read : -1, POLLIN, 0}};
    int open_pipes = stream ? 2 : 1;
    while (open_pipes > 0) {
        if (deadline && Clock::now() >= *deadline) {
            if (ending.timed_out) break; // killed, and its pipes are still held: stop reading
            ending.timed_out = true;
            judge.kill_group();
            deadline = Clock::now() +
                       std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(drain_after_kill_s));
        }
        if (poll(fds, 2, poll_wait_ms(deadline)) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            char buffer[65536];
            const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                fds[i].fd = -1;
                --open_pipes;
                continue;
            }
            if (i == 1) {
                stream_pending.append(buffer, static_cast<std::size_t>(n));
                split_lines(stream_pending, listener.stream_line);
            } else {
                keep_tail(ending.output, buffer, static_cast<std::size_t>(n), call.output_limit);
                console_pending.append(buffer, static_cast<std::size_t>(n));
                split_lines(console_pending, listener.console_line);
            }
        }
    }
    if (!console_pending.empty() && listener.console_line) listener.console_line(console_pending);
    // Both pipes are closed: the judge has ended, or is ending.
    const int status = judge.reap(30);
    if (WIFEXITED(status) && !ending.timed_out) {
        ending.exit_status = WEXITSTATUS(status);
    } else {
        ending.signal = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
    }
    return ending;
}

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace gemm::judge_child
