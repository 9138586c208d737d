#include "judge/supervisor.hpp"
#include "channel/protocol.hpp"
#include "core/plausibility.hpp"
#include "judge/interrupt.hpp"
#include "judge/process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <random>
#include <sys/wait.h>
#include <unistd.h>

namespace gemm {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_until(Clock::time_point deadline) {
    return std::chrono::duration<double>(deadline - Clock::now()).count();
}

Clock::time_point after(double seconds) {
    return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

void close_fd(int &fd) {
    if (fd >= 0) close(fd);
    fd = -1;
}

std::string format_seconds(double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g s", s);
    return text;
}

} // namespace

Supervisor::Supervisor(SupervisorOptions options)
    : options_(std::move(options)), random_state_(std::random_device{}() * 0x100000001ull ^ std::random_device{}()) {
    // A worker that dies while we write a case to it must not kill the judge.
    std::signal(SIGPIPE, SIG_IGN);
}

Supervisor::~Supervisor() { stop_worker(); }

bool Supervisor::spawn() {
    int command[2], result[2], output[2];
    if (pipe2(command, O_CLOEXEC) != 0) return false;
    if (pipe2(result, O_CLOEXEC) != 0) return false;
    if (pipe2(output, O_CLOEXEC) != 0) return false;
    std::vector<std::string> argv = options_.worker_argv;
    argv.push_back("--channel-in=" + std::to_string(command[0]));
    argv.push_back("--channel-out=" + std::to_string(result[1]));
    const pid_t parent = getpid();
    pid_ = fork();
    if (pid_ == 0) {
        become_group_that_dies_with_parent(parent); // a kill reaches whatever the solution spawned
        const int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, STDIN_FILENO);
        dup2(output[1], STDOUT_FILENO);
        dup2(output[1], STDERR_FILENO);
        close_inherited_descriptors({command[0], result[1]});
        fcntl(command[0], F_SETFD, 0);
        fcntl(result[1], F_SETFD, 0);
        std::vector<char *> args;
        for (auto &a : argv) args.push_back(a.data());
        args.push_back(nullptr);
        execvp(args[0], args.data());
        dprintf(STDERR_FILENO, "cannot execute worker %s: %s\n", args[0], strerror(errno));
        _exit(127);
    }
    close(command[0]);
    close(result[1]);
    close(output[1]);
    if (pid_ < 0) {
        close(command[1]);
        close(result[0]);
        close(output[0]);
        return false;
    }
    setpgid(pid_, pid_); // also from here: whichever runs first, the group exists
    stop_on_interrupt_.emplace(pid_);
    command_fd_ = command[1];
    result_fd_ = result[0];
    output_fd_ = output[0];
    fcntl(result_fd_, F_SETFL, O_NONBLOCK);
    fcntl(output_fd_, F_SETFL, O_NONBLOCK);
    result_buffer_.clear();
    return true;
}

int Supervisor::reap_worker(double wait_s) {
    if (pid_ < 0) return 0;
    int status = 0;
    const auto deadline = after(wait_s);
    for (;;) {
        const pid_t done = waitpid(pid_, &status, WNOHANG);
        if (done == pid_ || (done < 0 && errno != EINTR)) break;
        if (seconds_until(deadline) <= 0) {
            kill(-pid_, SIGKILL);
            kill(pid_, SIGKILL);
            while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
            }
            break;
        }
        usleep(2000);
    }
    kill(-pid_, SIGKILL); // anything the solution left behind in the group
    pid_ = -1;
    stop_on_interrupt_.reset();
    drain_output();
    close_fd(command_fd_);
    close_fd(result_fd_);
    close_fd(output_fd_);
    return status;
}

void Supervisor::stop_worker() {
    if (pid_ < 0) return;
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    reap_worker(5);
}

void Supervisor::drain_output() {
    if (output_fd_ < 0) return;
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(output_fd_, buffer, sizeof buffer);
        if (n == 0) close_fd(output_fd_); // the solution closed stdout and stderr: stop polling it
        if (n <= 0) break;
        output_tail_.append(buffer, static_cast<std::size_t>(n));
        // Keep a bounded tail: a solution that floods stdout costs memory only up to this.
        if (output_tail_.size() > 2 * options_.output_tail_bytes)
            output_tail_.erase(0, output_tail_.size() - options_.output_tail_bytes);
    }
}

// Appends complete lines from the channel; false once the worker has closed it.
bool Supervisor::read_messages(std::vector<std::string> &lines) {
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(result_fd_, buffer, sizeof buffer);
        if (n > 0) {
            result_buffer_.append(buffer, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        const bool open = n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
        for (std::size_t newline; (newline = result_buffer_.find('\n')) != std::string::npos;) {
            lines.push_back(result_buffer_.substr(0, newline));
            result_buffer_.erase(0, newline + 1);
        }
        return open;
    }
}

// Nonces and secrets: unpredictable to the solution, which never sees the judge's state.
std::uint64_t Supervisor::fresh_random() { return SplitMix64(random_state_++ * 0x9E3779B97F4A7C15ull).next(); }

bool Supervisor::send_line(const std::string &line) {
    for (std::size_t written = 0; written < line.size();) {
        const ssize_t n = write(command_fd_, line.data() + written, line.size() - written);
        if (n > 0)
            written += static_cast<std::size_t>(n);
        else if (errno != EINTR)
            return false;
    }
    return true;
}

std::string Supervisor::death_description(Phase phase, int call_index) {
    const int status = reap_worker(2);
    std::string how = describe_wait_status(status);
    const bool clean_exit = WIFEXITED(status);
    std::string when = phase == Phase::Solve ? " during call " + std::to_string(call_index) + " of solve()"
                                             : " while the judge was preparing or checking (after solve() returned)";
    std::string hint;
    if (clean_exit) hint = " without sending a result (exit() or a closed judge channel inside the solution?)";
    return "the worker process " + how + when + hint;
}

WorkerStart Supervisor::start() {
    if (pid_ >= 0) return last_start_;
    last_start_ = WorkerStart{};
    output_tail_.clear();
    if (!spawn()) {
        last_start_.failure = std::string("cannot start a worker process: ") + strerror(errno);
        return last_start_;
    }
    const std::uint64_t nonce = fresh_random();
    send_line(nlohmann::json{{"nonce", nonce}}.dump() + "\n");
    const auto deadline = after(options_.startup_limit_s);
    std::vector<std::string> lines;
    while (lines.empty()) {
        pollfd fds[2] = {{result_fd_, POLLIN, 0}, {output_fd_, POLLIN, 0}};
        const int remaining_ms = static_cast<int>(seconds_until(deadline) * 1000);
        if (remaining_ms <= 0) {
            stop_worker();
            last_start_.failure = "the worker did not start within " + format_seconds(options_.startup_limit_s);
            return last_start_;
        }
        poll(fds, 2, remaining_ms);
        drain_output();
        if (!read_messages(lines) && lines.empty()) {
            last_start_.failure =
                "the worker process " + describe_wait_status(reap_worker(2)) + " while loading the solution";
            return last_start_;
        }
    }
    try {
        const auto hello = nlohmann::json::parse(lines.front());
        if (hello.at("event") != event::hello || hello.at("nonce") != nonce) throw std::runtime_error("not a hello");
        last_start_.device = hello.at("device").get<DeviceInfo>();
        last_start_.solve_error = hello.at("solve_error").get<std::string>();
        last_start_.ok = true;
    } catch (const std::exception &) {
        stop_worker();
        last_start_.failure = "the worker's first message was not a judge hello: " + lines.front().substr(0, 200);
    }
    return last_start_;
}

CaseResult Supervisor::run_case(const TestCase &tc, const CasePolicy &policy) {
    const auto started = Clock::now();
    const WorkerStart ready = start();
    if (!ready.ok) return result_for(tc, Verdict::RE, ready.failure);
    output_tail_.clear();
    const CaseRequest request{tc, policy, fresh_random(), fresh_random()};
    if (!send_line(nlohmann::json(request).dump() + "\n")) {
        auto r = result_for(tc, Verdict::RE, death_description(Phase::Judge, 0));
        r.output_tail = output_tail_;
        return r;
    }

    const double call_limit = time_limit_s(tc) * options_.time_limit_scale;
    Phase phase = Phase::Judge;
    int call_index = 0;
    auto deadline = after(options_.judge_phase_limit_s);
    auto finish = [&](CaseResult r) {
        drain_output();
        r.output_tail = output_tail_;
        r.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
        return r;
    };
    for (;;) {
        pollfd fds[2] = {{result_fd_, POLLIN, 0}, {output_fd_, POLLIN, 0}};
        const int remaining_ms = std::max(0, static_cast<int>(std::ceil(seconds_until(deadline) * 1000)));
        if (poll(fds, 2, remaining_ms) == 0 && seconds_until(deadline) <= 0) {
            stop_worker();
            if (phase == Phase::Solve)
                return finish(result_for(tc, Verdict::TLE,
                                         "call " + std::to_string(call_index) +
                                             " of solve() ran past the time limit of " + format_seconds(call_limit) +
                                             " (the worker was killed)"));
            return finish(result_for(tc, Verdict::JE,
                                     "the judge's own work on this case took over " +
                                         format_seconds(options_.judge_phase_limit_s)));
        }
        drain_output();
        std::vector<std::string> lines;
        const bool open = read_messages(lines);
        for (const auto &line : lines) {
            nlohmann::json message;
            std::string kind;
            try {
                message = nlohmann::json::parse(line);
                kind = message.at("event").get<std::string>();
                if (message.at("nonce").get<std::uint64_t>() != request.nonce) throw std::runtime_error("forged");
            } catch (const std::exception &) {
                stop_worker();
                return finish(result_for(tc, Verdict::RE,
                                         "the judge's private channel received something that is not a judge message "
                                         "(the solution wrote to a file descriptor it does not own?): " +
                                             line.substr(0, 120)));
            }
            if (kind == event::call) {
                phase = Phase::Solve;
                ++call_index;
                deadline = after(call_limit);
            } else if (kind == event::judge) {
                phase = Phase::Judge;
                deadline = after(options_.judge_phase_limit_s);
            } else if (kind == event::result) {
                CaseResult r;
                try {
                    r = message.at("result").get<CaseResult>();
                } catch (const std::exception &e) {
                    stop_worker();
                    return finish(
                        result_for(tc, Verdict::JE, std::string("malformed result from the worker: ") + e.what()));
                }
                if (message.value("worker_exits", false)) reap_worker(10);
                r.name = tc.name;
                r.M = tc.M;
                r.N = tc.N;
                r.K = tc.K;
                if (const auto why = impossible_timing(r, ready.device)) {
                    r.verdict = Verdict::JE;
                    r.detail = *why;
                    r.timing.reset();
                    r.baseline.reset();
                }
                return finish(r);
            }
        }
        if (!open) return finish(result_for(tc, Verdict::RE, death_description(phase, call_index)));
    }
}

} // namespace gemm
