#include "judging/supervisor.hpp"
#include "channel/judge_channel.hpp"
#include "channel/protocol.hpp"
#include "judging/os/process.hpp"
#include "judging/os/runner_scratch.hpp"
#include "runner/confinement.hpp"
#include "sandbox/attempt_monitor.hpp"
#include "sandbox/fd_passing.hpp"
#include "verification/case_verdict.hpp"
#include "verification/plausibility.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <random>
#include <sys/socket.h>
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

// How long the referee may take to send a case's result once the judge killed a runner
// whose call overran (it only has to notice the runner's end close).
constexpr double overrun_answer_limit_s = 30;

// How often a runner's folder that no tmpfs caps is measured while a case runs.
constexpr int scratch_watch_ms = 250;

bool output_pipe(int ends[2]) {
    if (pipe2(ends, O_CLOEXEC) != 0) return false;
    fcntl(ends[0], F_SETFL, O_NONBLOCK);
    return true;
}

// What a child of the judge may see of its environment: the GPU's selection and the
// library path the driver may need, nothing of the user's.
std::vector<std::string> scrubbed_environment(const std::string &home) {
    std::vector<std::string> env = {"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + home,
                                    "LANG=C.UTF-8"};
    for (const char *name : {"CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "NVIDIA_VISIBLE_DEVICES"})
        if (const char *value = std::getenv(name)) env.push_back(std::string(name) + "=" + value);
    return env;
}

} // namespace

// Under a tool (compute-sanitizer, ncu) the calls are not what is timed, and the tool's
// own threads would share the runners' one CPU.
static std::shared_ptr<const CpuClaim> claim_cpus(const SupervisorOptions &options) {
    if (!options.runner_prefix.empty()) return CpuClaim::none(options.relaxed_for + " wraps the solution's process");
    if (!cpu_pinning_wanted()) return CpuClaim::none("GEMM_JUDGE_PIN_CPUS=0");
    return CpuClaim::for_this_judge();
}

Supervisor::Supervisor(SupervisorOptions options)
    : options_(std::move(options)), cpus_(claim_cpus(options_)),
      random_state_(std::random_device{}() * 0x100000001ull ^ std::random_device{}()) {
    // A child that dies while we write to it must not kill the judge.
    std::signal(SIGPIPE, SIG_IGN);
}

Supervisor::~Supervisor() {
    close_fd(pending_runner_end_);
    stop_all();
}

// Nonces and secrets: unpredictable, and held by trusted processes only.
std::uint64_t Supervisor::fresh_random() { return SplitMix64(random_state_++ * 0x9E3779B97F4A7C15ull).next(); }

void Supervisor::stop_without_waiting() { stop_all(false); }

void Supervisor::stop_all(bool wait) {
    // All three end together: reaped one after the other, their exits took 0.55 s.
    for (ChildProcess *child : {&runner_, &baseline_, &referee_}) {
        if (wait)
            child->kill_group();
        else
            child->abandon();
    }
    runner_.stop();
    baseline_.stop();
    referee_.stop();
    drain_outputs();
    channel_.close();
    for (int &fd : spare_runner_ends_) close_fd(fd);
    spare_runner_ends_.clear();
    runner_needed_ = false;
    close_fd(monitor_socket_);
    close_fd(solution_output_.fd);
    close_fd(judge_side_output_.fd);
    keep_attempts();
    monitor_.reset();
    release_scratch();
}

void Supervisor::release_scratch() {
    if (!scratch_) return;
    if (auto over = scratch_->overfilled()) overfilled_ = std::move(over);
    scratch_.reset();
}

std::optional<std::string> Supervisor::take_overfilled() {
    std::optional<std::string> over = std::move(overfilled_);
    overfilled_.reset();
    if (!over && scratch_) over = scratch_->overfilled();
    return over;
}

void Supervisor::drain(Output &output) {
    if (output.fd < 0) return;
    char buffer[65536];
    for (;;) {
        const ssize_t n = read(output.fd, buffer, sizeof buffer);
        if (n == 0) close_fd(output.fd); // closed: stop polling it
        if (n <= 0) break;
        output.tail.append(buffer, static_cast<std::size_t>(n));
        // A bounded tail: a solution that floods stdout costs memory only up to this.
        if (output.tail.size() > 2 * options_.output_tail_bytes)
            output.tail.erase(0, output.tail.size() - options_.output_tail_bytes);
    }
}

void Supervisor::drain_outputs() {
    drain(solution_output_);
    drain(judge_side_output_);
}

// The runner's notifications are answered whenever the supervisor waits: a blocked
// runner thread never holds up the call it belongs to for longer than a poll.
void Supervisor::answer_monitor() {
    if (monitor_) monitor_->handle_ready();
}

// What the monitor named so far, kept: taken once per case (its signals then count as one
// attempt) and before the monitor goes.
void Supervisor::keep_attempts() {
    if (!monitor_) return;
    for (auto &a : monitor_->take_attempts()) attempts_.push_back(std::move(a));
}

bool Supervisor::wait_for_activity(int ms) {
    std::vector<pollfd> fds;
    for (int fd : {channel_.fd(), solution_output_.fd, judge_side_output_.fd, monitor_socket_})
        if (fd >= 0) fds.push_back({fd, POLLIN, 0});
    if (monitor_) fds.push_back({monitor_->fd(), POLLIN, 0});
    const int n = poll(fds.data(), fds.size(), std::max(ms, 0));
    if (monitor_ && (fds.back().revents & POLLIN)) answer_monitor();
    if (monitor_ && (fds.back().revents & (POLLHUP | POLLERR | POLLNVAL))) {
        // Nothing is left under the filter: keep what it tried, stop polling a closed listener.
        answer_monitor();
        keep_attempts();
        monitor_.reset();
    }
    drain_outputs();
    return n > 0;
}

// The next line from the referee, parsed and with its nonce checked; nullopt (and why)
// when it is gone, silent past the limit, or says something that is not a message.
std::optional<nlohmann::json> Supervisor::wait_for_message(double limit_s, std::string &failure) {
    const auto deadline = after(limit_s);
    std::vector<std::string> lines;
    for (;;) {
        const bool open = channel_.read_lines(lines);
        if (!lines.empty()) break;
        if (!open) {
            failure = "the referee process " + describe_wait_status(referee_.reap(2)) + " while starting" +
                      (judge_side_output_.tail.empty() ? "" : ": " + judge_side_output_.tail.substr(0, 300));
            return std::nullopt;
        }
        if (seconds_until(deadline) <= 0) {
            failure = "the referee did not answer within " + format_seconds(limit_s);
            return std::nullopt;
        }
        // A folder no tmpfs caps is watched while the solution loads too (its constructors):
        // past the limit the runner is stopped, and its loss is then the solution's RE.
        const bool watched = scratch_ && !scratch_->size_capped() && runner_.running();
        int wait_ms = static_cast<int>(std::ceil(seconds_until(deadline) * 1000));
        if (watched) wait_ms = std::min(wait_ms, scratch_watch_ms);
        wait_for_activity(wait_ms);
        if (watched && scratch_->overfilled_every(std::chrono::milliseconds(scratch_watch_ms))) runner_.kill_group();
        if (monitor_socket_ >= 0) receive_listener();
    }
    channel_.unread({lines.begin() + 1, lines.end()});
    auto message = JudgeChannel::parse(lines.front());
    if (!message) failure = "the referee's message is not one: " + lines.front().substr(0, 200);
    return message;
}

bool Supervisor::spawn_referee_and_baseline(int &runner_end) {
    int channel_in = -1, channel_out = -1, output[2], runner_pair[2], baseline_pair[2];
    if (!channel_.open(channel_in, channel_out) || !output_pipe(output) ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, runner_pair) != 0 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, baseline_pair) != 0)
        return false;
    // The referee's ends of the spare runners' sockets: a failed runner is replaced on the next.
    std::vector<int> spare_referee_ends;
    std::string spares;
    for (int i = 0; i < options_.spare_runners; ++i) {
        int pair[2];
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) break;
        spare_referee_ends.push_back(pair[0]);
        spare_runner_ends_.push_back(pair[1]);
        spares += (spares.empty() ? "" : ",") + std::to_string(pair[0]);
    }
    ChildSpec referee;
    referee.argv = {options_.referee, "--channel-in=" + std::to_string(channel_in),
                    "--channel-out=" + std::to_string(channel_out), "--runner=" + std::to_string(runner_pair[0]),
                    "--baseline=" + std::to_string(baseline_pair[0])};
    if (!spares.empty()) referee.argv.push_back("--spare-runners=" + spares);
    referee.keep_fds = {channel_in, channel_out, runner_pair[0], baseline_pair[0]};
    referee.keep_fds.insert(referee.keep_fds.end(), spare_referee_ends.begin(), spare_referee_ends.end());
    referee.output_fd = output[1];
    if (cpus_->pair()) referee.cpu = cpus_->pair()->referee;
    ChildSpec baseline;
    baseline.argv = {options_.runner, "--referee=" + std::to_string(baseline_pair[1]), "--baseline"};
    baseline.keep_fds = {baseline_pair[1]};
    baseline.output_fd = output[1];
    if (cpus_->pair()) baseline.cpu = cpus_->pair()->runners;
    const bool started = referee_.start(referee) && baseline_.start(baseline);
    ++starts_.referees;
    for (int fd : {channel_in, channel_out, output[1], runner_pair[0], baseline_pair[0], baseline_pair[1]}) close(fd);
    for (int fd : spare_referee_ends) close(fd);
    judge_side_output_ = {output[0], ""};
    runner_end = runner_pair[1];
    return started;
}

bool Supervisor::spawn_runner(int runner_end) {
    int output[2], monitor_pair[2];
    // Message boundaries: the listener, then the report, each one message.
    if (!output_pipe(output) || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, monitor_pair) != 0) return false;
    scratch_ =
        std::make_unique<RunnerScratch>(options_.library, options_.scratch_limit_bytes, options_.scratch_may_mount);
    ChildSpec runner;
    runner.argv = options_.runner_prefix;
    runner.argv.insert(runner.argv.end(), {options_.runner, "--referee=" + std::to_string(runner_end),
                                           "--monitor=" + std::to_string(monitor_pair[1])});
    if (!options_.relaxed_for.empty()) runner.argv.push_back("--relaxed=" + options_.relaxed_for);
    if (!options_.entry.empty()) runner.argv.push_back("--entry=" + options_.entry);
    runner.argv.push_back(scratch_->library());
    runner.keep_fds = {runner_end, monitor_pair[1]};
    runner.output_fd = output[1];
    runner.cwd = scratch_->dir();
    runner.environment = scrubbed_environment(scratch_->dir());
    if (cpus_->pair()) runner.cpu = cpus_->pair()->runners; // where the baseline measures the path's cost
    const bool started = runner_.start(runner);
    ++starts_.runners;
    for (int fd : {output[1], monitor_pair[1], runner_end}) close(fd);
    solution_output_ = {output[0], ""};
    monitor_socket_ = monitor_pair[0];
    return started;
}

// The runner's confinement, as its own code reports it before loading the solution:
// the seccomp listener (the proof that the filter is in force), then what is unconfined.
// Reads what has arrived; the socket is closed once the report is in.
bool Supervisor::receive_listener() {
    for (;;) {
        pollfd ready{monitor_socket_, POLLIN, 0};
        if (poll(&ready, 1, 0) <= 0) return true;
        std::string payload;
        const int listener = sandbox::receive_fd(monitor_socket_, payload);
        if (listener >= 0) {
            monitor_ = std::make_unique<sandbox::AttemptMonitor>(
                listener, runner_policy(scratch_->dir(), runner_.pid(), options_.relaxed_for), runner_.pid());
            continue;
        }
        const auto report = nlohmann::json::parse(payload, nullptr, false);
        if (report.is_object())
            for (const auto &item : report.value("unconfined", nlohmann::json::array()))
                if (item.is_string()) last_start_.unconfined.push_back(item.get<std::string>());
        if (!monitor_) last_start_.unconfined.push_back("no seccomp listener reached the judge: attempts go unnamed");
        close_fd(monitor_socket_);
        return report.is_object();
    }
}

void Supervisor::begin() {
    if (begun_ || referee_.running()) return;
    begun_ = true;
    last_start_ = WorkerStart{};
    last_start_.cpus = cpus_->describe();
    // While another judge has the GPU, the referee waits for start(): the compile goes on
    // meanwhile, and nothing of this judge runs on the GPU before its turn.
    if (options_.takes_gpu_turn && !gpu_turn_) gpu_turn_ = GpuTurn::for_this_judge(false);
    waiting_for_gpu_ = options_.takes_gpu_turn && !gpu_turn_;
    if (!waiting_for_gpu_) spawn_judge_side();
}

void Supervisor::spawn_judge_side() {
    solution_output_.tail.clear();
    judge_side_output_.tail.clear();
    if (!spawn_referee_and_baseline(pending_runner_end_)) {
        last_start_.failure = std::string("cannot start the judge's processes: ") + strerror(errno);
        close_fd(pending_runner_end_);
        stop_all();
        return;
    }
    nlohmann::json shapes = nlohmann::json::array();
    for (const auto &s : options_.timed_shapes) shapes.push_back({s[0], s[1], s[2], s[3]});
    pending_nonce_ = fresh_random();
    channel_.send({{"nonce", pending_nonce_}, {"calibrate", shapes}, {"baseline_group", baseline_.pid()}});
}

WorkerStart Supervisor::start() {
    if (!begun_) {
        if (referee_.running()) return runner_needed_ ? replace_runner() : last_start_;
        begin();
    }
    if (waiting_for_gpu_) {
        const auto asked = Clock::now();
        gpu_turn_ = GpuTurn::for_this_judge(true); // says whom it waits for
        last_start_.waited_for_gpu_s = std::chrono::duration<double>(Clock::now() - asked).count();
        waiting_for_gpu_ = false;
        spawn_judge_side();
    }
    return finish_start();
}

WorkerStart Supervisor::finish_start() {
    begun_ = false;
    if (!last_start_.failure.empty()) return last_start_;
    int runner_end = pending_runner_end_;
    pending_runner_end_ = -1;
    const std::uint64_t nonce = pending_nonce_;
    std::string failure;
    const auto waiting = Clock::now();
    const auto hello = wait_for_message(options_.startup_limit_s, failure);
    last_start_.waited_for_referee_s = std::chrono::duration<double>(Clock::now() - waiting).count();
    if (!hello || hello->value("event", "") != event::hello || hello->value("nonce", std::uint64_t{0}) != nonce) {
        last_start_.failure = hello ? "the referee's first message was not a hello" : failure;
        close_fd(runner_end);
        stop_all();
        return last_start_;
    }
    try {
        last_start_.device = hello->at("device").get<DeviceInfo>();
        failure = hello->value("failure", "");
    } catch (const std::exception &e) {
        failure = std::string("the referee's hello is malformed: ") + e.what();
    }
    if (!failure.empty()) {
        last_start_.failure = failure;
        close_fd(runner_end);
        stop_all();
        return last_start_;
    }
    return start_runner(runner_end, nonce);
}

WorkerStart Supervisor::start_runner(int runner_end, std::uint64_t nonce) {
    const auto started = Clock::now();
    try {
        if (!spawn_runner(runner_end)) throw std::runtime_error(strerror(errno));
    } catch (const std::exception &e) {
        last_start_.failure = std::string("cannot start the solution's process: ") + e.what();
        stop_all();
        return last_start_;
    }
    channel_.send({{"nonce", nonce}, {"event", event::runner}, {"group", runner_.pid()}});
    if (!scratch_->size_capped())
        last_start_.unconfined.push_back("its folder is not size-capped (" + scratch_->uncapped_because() +
                                         "): the judge watches it and stops it past " +
                                         describe_bytes(options_.scratch_limit_bytes));
    // Under a tool (compute-sanitizer, ncu) the process starts the tool first: its limit.
    const double limit = options_.runner_prefix.empty() ? options_.load_limit_s : options_.startup_limit_s;
    std::string failure;
    const auto deadline = after(limit);
    const auto runner_hello = wait_for_message(limit, failure);
    last_start_.runner_start_s = std::chrono::duration<double>(Clock::now() - started).count();
    if (monitor_socket_ >= 0) receive_listener();
    if (!runner_hello && referee_.running() && runner_.running() && seconds_until(deadline) <= 0) {
        // The referee waits for the runner's hello: the solution's process has not loaded.
        last_start_.failure = "the solution's process did not finish loading the solution within " +
                              format_seconds(limit) + " (a constructor or static initializer that never returns?)";
        last_start_.ending = SupervisorSaw::NotStarted;
        stop_all();
        if (auto over = take_overfilled()) last_start_.failure = *over + "; " + last_start_.failure;
        return last_start_;
    }
    if (!runner_hello || runner_hello->value("event", "") != event::runner ||
        runner_hello->value("nonce", std::uint64_t{0}) != nonce) {
        last_start_.failure = runner_hello ? "the referee did not relay the runner's hello" : failure;
        stop_all();
        return last_start_;
    }
    if (runner_hello->value("lost", false) || !runner_hello->value("why", "").empty()) {
        last_start_.failure =
            runner_hello->value("lost", false)
                ? "the solution's process " + describe_wait_status(runner_.reap(2)) +
                      " while loading the solution, before any call of solve()"
                : "the solution's process broke the runner protocol: " + runner_hello->value("why", "");
        last_start_.ending = SupervisorSaw::NotStarted;
        stop_all();
        if (auto over = take_overfilled()) last_start_.failure = *over + "; " + last_start_.failure;
        return last_start_;
    }
    last_start_.solve_error = runner_hello->value("solve_error", "");
    last_start_.ok = true;
    return last_start_;
}

WorkerStart Supervisor::replace_runner() {
    runner_needed_ = false;
    last_start_.ok = false;
    last_start_.failure.clear();
    last_start_.ending = SupervisorSaw::JudgeSideFailed;
    last_start_.unconfined.clear();
    last_start_.waited_for_gpu_s = last_start_.waited_for_referee_s = 0;
    if (spare_runner_ends_.empty()) { // the referee had one more than the judge: start all afresh
        stop_all();
        return start();
    }
    const int runner_end = spare_runner_ends_.front();
    spare_runner_ends_.erase(spare_runner_ends_.begin());
    return start_runner(runner_end, fresh_random());
}

void Supervisor::retire_runner() {
    runner_.kill_group();
    runner_.stop();
    drain(solution_output_);
    close_fd(solution_output_.fd);
    close_fd(monitor_socket_);
    keep_attempts();
    monitor_.reset();
    release_scratch();
    runner_needed_ = true;
}

void Supervisor::end_overrun_call() {
    runner_.kill_group();
    runner_.stop();
    // The referee hears its runner's end close and sends the case's result: a runner is
    // then replaced; anything else, or silence, and all three start afresh.
    std::string failure;
    const auto deadline = after(overrun_answer_limit_s);
    while (seconds_until(deadline) > 0) {
        const auto message = wait_for_message(seconds_until(deadline), failure);
        if (!message) break;
        if (message->value("event", "") != event::result) continue;
        if (message->value("runner_replaced", false) && !message->value("worker_exits", false)) {
            retire_runner();
            return;
        }
        break;
    }
    stop_all();
}

std::string Supervisor::describe_runner_end(int call_index) {
    const int status = runner_.reap(2);
    std::string text =
        "the solution's process " + describe_wait_status(status) +
        (call_index > 0 ? " during call " + std::to_string(call_index) + " of solve()" : " between calls of solve()");
    if (WIFEXITED(status)) text += " without returning (exit() inside the solution?)";
    return text;
}

std::string Supervisor::attempts_text() {
    answer_monitor();
    keep_attempts();
    std::string text;
    for (const auto &a : attempts_) text += (text.empty() ? "" : "; ") + a;
    attempts_.clear();
    return text;
}

CaseResult Supervisor::run_case(const TestCase &tc, const CasePolicy &policy) {
    const auto started = Clock::now();
    CaseResult r = run_case_once(tc, policy);
    ++case_runs_.runs;
    case_runs_.seconds += std::chrono::duration<double>(Clock::now() - started).count();
    return r;
}

CaseResult Supervisor::run_case_once(const TestCase &tc, const CasePolicy &policy) {
    const auto started = Clock::now();
    const WorkerStart ready = start();
    if (!ready.ok) {
        // Only a solution's process that could not load is the solution's doing (RE).
        CaseFacts facts = ended_early(ready.ending, ready.failure);
        facts.folder_overfilled = take_overfilled();
        auto r = decide_case(tc.name, shape_of(tc), std::move(facts));
        r.output_tail = std::move(solution_output_.tail);
        solution_output_.tail.clear();
        return r;
    }
    overfilled_.reset(); // a folder released before this case is not this case's doing
    const CaseRequest request{tc, policy, fresh_random(), fresh_random()};
    const double call_limit = time_limit_s(tc) * options_.time_limit_scale;
    Phase phase = Phase::Judge;
    int call_index = 0;
    auto deadline = after(options_.judge_phase_limit_s);
    auto finish = [&](CaseFacts facts) {
        drain_outputs();
        facts.attempts = attempts_text();
        facts.folder_overfilled = take_overfilled();
        CaseResult r = decide_case(tc.name, shape_of(tc), std::move(facts));
        // What it printed since the last case ended: the first case after a start also shows
        // what the solution printed while it loaded (its constructors).
        r.output_tail = std::move(solution_output_.tail);
        solution_output_.tail.clear();
        r.wall_seconds = std::chrono::duration<double>(Clock::now() - started).count();
        return r;
    };
    if (!channel_.send(nlohmann::json(request))) {
        stop_all();
        return finish(ended_early(SupervisorSaw::JudgeSideFailed, "the referee is gone"));
    }
    for (;;) {
        int remaining_ms = std::max(0, static_cast<int>(std::ceil(seconds_until(deadline) * 1000)));
        // A folder that no tmpfs caps is watched: the runner is stopped soon after it passes
        // its limit, before it fills the disk the judge's reports are written to.
        const bool watched = scratch_ && !scratch_->size_capped();
        if (watched) remaining_ms = std::min(remaining_ms, scratch_watch_ms);
        const bool active = wait_for_activity(remaining_ms);
        if (watched && scratch_ && scratch_->overfilled_every(std::chrono::milliseconds(scratch_watch_ms))) {
            if (phase == Phase::Judge) // the referee may be reading the runner's memory: all afresh
                stop_all();
            else
                end_overrun_call();
            return finish(ended_early(SupervisorSaw::FolderOverfilled, ""));
        }
        if (!active && seconds_until(deadline) <= 0) {
            if (phase == Phase::Judge)
                stop_all();
            else
                end_overrun_call();
            if (phase == Phase::Solve)
                return finish(ended_early(SupervisorSaw::CallOverran, "call " + std::to_string(call_index) +
                                                                          " of solve() ran past the time limit of " +
                                                                          format_seconds(call_limit) +
                                                                          " (the solution's process was killed)"));
            if (phase == Phase::Calibration)
                return finish(ended_early(
                    SupervisorSaw::CallOverran,
                    "a stand-in call the judge made in the solution's process " +
                        (call_index > 0 ? "after call " + std::to_string(call_index) + " of solve()"
                                        : std::string("before any call of solve()")) +
                        " ran past the time limit of " + format_seconds(call_limit) +
                        ": the judge's own kernel there takes milliseconds, so the solution's process kept it from "
                        "returning (it was killed)"));
            return finish(
                ended_early(SupervisorSaw::JudgeSideFailed, "the judge's own work on this case took over " +
                                                                format_seconds(options_.judge_phase_limit_s)));
        }
        std::vector<std::string> lines;
        const bool open = channel_.read_lines(lines);
        for (const auto &line : lines) {
            const auto parsed = JudgeChannel::parse(line);
            const bool ours = parsed && parsed->value("nonce", std::uint64_t{0}) == request.nonce;
            if (!ours) {
                stop_all();
                return finish(
                    ended_early(SupervisorSaw::JudgeSideFailed,
                                "the referee sent something that is not a judge message: " + line.substr(0, 120)));
            }
            const nlohmann::json &message = *parsed;
            const std::string kind = message.value("event", "");
            if (kind == event::call) {
                phase = Phase::Solve;
                ++call_index;
                deadline = after(call_limit);
            } else if (kind == event::calibration) {
                phase = Phase::Calibration;
                deadline = after(call_limit);
            } else if (kind == event::judge) {
                phase = Phase::Judge;
                deadline = after(options_.judge_phase_limit_s);
            } else if (kind == event::result) {
                CaseFacts facts;
                try {
                    facts.reported = message.at("result").get<CaseResult>();
                } catch (const std::exception &e) {
                    stop_all();
                    return finish(ended_early(SupervisorSaw::JudgeSideFailed,
                                              std::string("malformed result from the referee: ") + e.what()));
                }
                if (facts.reported.runner_lost) facts.runner_end = describe_runner_end(facts.reported.failed_call);
                if (message.value("worker_exits", false))
                    stop_all();
                else if (message.value("runner_replaced", false))
                    retire_runner();
                facts.impossible_timing = impossible_timing(facts.reported, ready.device);
                return finish(std::move(facts));
            }
        }
        if (!open) {
            const std::string why = "the referee process " + describe_wait_status(referee_.reap(2)) + ": " +
                                    judge_side_output_.tail.substr(0, 300);
            stop_all();
            return finish(ended_early(SupervisorSaw::JudgeSideFailed, why));
        }
    }
}

} // namespace gemm
