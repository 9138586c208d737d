#include "serve/judge_child.hpp"
#include "judging/os/child_process.hpp"

#include <cerrno>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gemm::serve {

namespace {

// What the console may hold at most: its end is what explains a run that went wrong.
constexpr std::size_t console_tail_bytes = 64 * 1024;

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
    void close_write() {
        close(write);
        write = -1;
    }
};

// Complete lines out of what a pipe gave, the rest kept for the next read.
template <typename OnLine> void split_lines(std::string &pending, OnLine on_line) {
    for (std::size_t end; (end = pending.find('\n')) != std::string::npos;) {
        on_line(pending.substr(0, end));
        pending.erase(0, end + 1);
    }
}

void add_stream_line(Submission &submission, const std::string &line) {
    auto event = nlohmann::json::parse(line, nullptr, false);
    if (event.is_object() && event.contains("event")) submission.add(std::move(event));
}

void add_console_line(Submission &submission, const std::string &line, std::string &console) {
    // gpu_turn's words: another judge holds the GPU, and this one waits for its turn.
    if (line.find("waiting for the GPU") != std::string::npos)
        submission.add({{"event", "stage"}, {"stage", "waiting for the GPU"}, {"detail", line}});
    console += line + "\n";
    if (console.size() > console_tail_bytes) console.erase(0, console.size() - console_tail_bytes);
}

} // namespace

std::vector<std::string> judge_command(const JudgeProgram &program, JudgingKind kind, const std::string &source,
                                       int stream_fd) {
    std::vector<std::string> argv{program.path};
    if (kind == JudgingKind::rank) argv.push_back("rank");
    argv.push_back(source);
    if (kind == JudgingKind::run) argv.insert(argv.end(), {"--category", "sample"});
    argv.insert(argv.end(), {"--stream", "/dev/fd/" + std::to_string(stream_fd)});
    argv.insert(argv.end(), program.shared_args.begin(), program.shared_args.end());
    return argv;
}

JudgeEnding judge_submission(const JudgeProgram &program, Submission &submission, const std::string &source) {
    Pipe stream, console;
    ChildSpec spec;
    spec.argv = judge_command(program, submission.kind, source, stream.write);
    spec.keep_fds = {stream.write};
    spec.output_fd = console.write;
    ChildProcess judge;
    if (!judge.start(spec)) throw std::runtime_error("cannot start the judge " + program.path);
    stream.close_write();
    console.close_write();
    submission.add({{"event", "stage"}, {"stage", "compiling"}, {"judge_pid", judge.pid()}});

    JudgeEnding ending;
    std::string stream_pending, console_pending;
    pollfd fds[2] = {{stream.read, POLLIN, 0}, {console.read, POLLIN, 0}};
    int open_pipes = 2;
    while (open_pipes > 0) {
        if (poll(fds, 2, -1) < 0) {
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
            if (i == 0) {
                stream_pending.append(buffer, static_cast<std::size_t>(n));
                split_lines(stream_pending, [&](const std::string &line) { add_stream_line(submission, line); });
            } else {
                console_pending.append(buffer, static_cast<std::size_t>(n));
                split_lines(console_pending,
                            [&](const std::string &line) { add_console_line(submission, line, ending.console); });
            }
        }
    }
    if (!console_pending.empty()) add_console_line(submission, console_pending, ending.console);
    // Both pipes are closed: the judge has ended, or is ending.
    const int status = judge.reap(30);
    ending.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return ending;
}

} // namespace gemm::serve
