// gemm-referee: the trusted GPU process. It never loads the solution. It owns the
// seeds, the pristine inputs, the FP64 reference, every check of every call, the clock
// and the cuBLAS baseline; runner processes (runner/) make the calls on memory it
// hands them. Start-up, as the supervisor drives it (judging/supervisor.cpp):
//   judge → referee: {nonce, calibrate: [[M,N,K]…]}   (the baseline runner is up)
//   referee → judge: hello {device}                   (empty calls measured)
//   judge → referee: {event: runner, pid}             (the solution's runner is up)
//   referee → judge: runner {solve_error}             (its hello, or that it is gone)
// then one request and one result per case. Without a GPU the referee still relays
// the runner's hello, so a library without solve() is CE on any machine.
// A solution's runner that fails (dies, hangs and is killed, breaks the protocol) is
// replaced while a spare socket is left (--spare-runners): the result says
// runner_replaced, the judge starts a fresh runner on the next socket and says
// {event: runner, group} again, and the referee, its CUDA context, its calibrated empty
// calls and the baseline runner go on. A crash then costs a runner's start, not a
// referee's (docs/perf-notes.md, "Fail fast"). Without spares left, or on the judge's own
// failure, the referee exits after the result (worker_exits) and the judge starts afresh.
#include "channel/channel.hpp"
#include "channel/protocol.hpp"
#include "channel/runner_protocol.hpp"
#include "channel/worker_arguments.hpp"
#include "referee/case_referee.hpp"
#include "referee/device_info.hpp"

#include <cstdint>
#include <iostream>
#include <sys/prctl.h>
#include <vector>

namespace {

using namespace gemm;

// The request, or why it cannot be run: a request the referee cannot read or follow
// is the judge's fault (JE), never the solution's.
std::optional<CaseRequest> readable_request(const nlohmann::json &message, std::string &problem) {
    try {
        auto request = message.get<CaseRequest>();
        problem = request_problem(request);
        if (problem.empty()) return request;
    } catch (const std::exception &e) {
        problem = e.what();
    }
    return std::nullopt;
}

// The referee's facts of one case; the judge decides its verdict and stamps its identity.
CaseResult judge_one(CaseReferee &referee, const CaseRequest &request, bool &start_afresh) {
    CaseResult result;
    try {
        result = referee.run(request);
    } catch (const CaseStopped &e) {
        // Whose fault it is travels as the fact the referee named, never guessed from here.
        result.facts.ending = e.ending;
        result.facts.why = e.ending == RefereeWork::SolutionFailed
                               ? e.what()
                               : std::string("the judge failed on this case: ") + e.what();
        result.runner_lost = e.lost;
        result.failed_call = e.call;
        start_afresh = true; // its process may be gone or its context unusable
    } catch (const std::exception &e) {
        result.facts.ending = RefereeWork::RefereeFailed;
        result.facts.why = std::string("the judge failed on this case: ") + e.what();
        start_afresh = true;
    }
    return result;
}

// How a run of cases through one solution's runner ended.
enum class Served { Closed, RunnerReplaced, Exit };

Served serve(RefereeChannel &judge, CaseReferee &referee, bool spare_runner_left) {
    while (auto message = judge.receive()) {
        judge.set_nonce(message->value("nonce", std::uint64_t{0}));
        std::string problem;
        const auto request = readable_request(*message, problem);
        if (!request) {
            CaseResult bad;
            bad.facts.ending = RefereeWork::RefereeFailed;
            bad.facts.why = "the judge sent a request the referee cannot run: " + problem;
            judge.send({{"event", event::result}, {"result", bad}, {"worker_exits", false}});
            continue;
        }
        bool start_afresh = false;
        const CaseResult result = judge_one(referee, *request, start_afresh);
        // Only the solution's runner is at fault: a fresh one on a spare socket, the rest kept.
        const bool replace_runner =
            start_afresh && result.facts.ending == RefereeWork::SolutionFailed && spare_runner_left;
        judge.send({{"event", event::result},
                    {"result", result},
                    {"worker_exits", start_afresh && !replace_runner},
                    {"runner_replaced", replace_runner}});
        if (replace_runner) return Served::RunnerReplaced;
        if (start_afresh) return Served::Exit;
    }
    return Served::Closed;
}

std::vector<ShapeKey> shapes_to_calibrate(const nlohmann::json &greeting) {
    std::vector<ShapeKey> shapes;
    for (const auto &s : greeting.value("calibrate", nlohmann::json::array()))
        shapes.push_back({s.at(0).get<long long>(), s.at(1).get<long long>(), s.at(2).get<long long>(),
                          s.size() > 3 ? s.at(3).get<long long>() : 1, 0});
    return shapes;
}

int referee_session(RefereeChannel &judge, const std::vector<int> &runner_fds, int baseline_fd,
                    const DeviceInfo &device) {
    const auto greeting = judge.receive();
    if (!greeting) return 2;
    judge.set_nonce(greeting->at("nonce").get<std::uint64_t>());
    RunnerLink baseline(baseline_fd);
    std::optional<CaseReferee> referee;
    if (device.present) {
        // The baseline runner's hello, then the empty calls, before the solution's runner exists.
        const RunnerReply baseline_hello = baseline.hello();
        if (baseline_hello.kind != RunnerReply::Kind::Done || !baseline_hello.solve_error.empty()) {
            judge.send(
                {{"event", event::hello},
                 {"device", device},
                 {"failure", "the baseline runner did not start: " + baseline_hello.why + baseline_hello.solve_error}});
            return 3;
        }
        baseline.stop_between_exchanges(greeting->value("baseline_group", 0));
        referee.emplace(judge, baseline, device);
        referee->calibrate(shapes_to_calibrate(*greeting));
    }
    judge.send({{"event", event::hello}, {"device", device}, {"failure", ""}});

    for (std::size_t i = 0; i < runner_fds.size(); ++i) {
        const auto runner_started = judge.receive();
        if (!runner_started) return 0;
        judge.set_nonce(runner_started->value("nonce", std::uint64_t{0}));
        RunnerLink solution(runner_fds[i]);
        const RunnerReply hello = solution.hello();
        if (hello.kind != RunnerReply::Kind::Done) {
            judge.send({{"event", event::runner},
                        {"lost", hello.kind == RunnerReply::Kind::Lost},
                        {"why", hello.why},
                        {"solve_error", ""}});
            return 0;
        }
        solution.stop_between_exchanges(runner_started->value("group", 0));
        judge.send({{"event", event::runner}, {"lost", false}, {"why", ""}, {"solve_error", hello.solve_error}});
        if (!hello.solve_error.empty() || !referee) return 0;
        referee->attach_solution(solution);
        const Served served = serve(judge, *referee, i + 1 < runner_fds.size());
        // Nothing the failed runner was handed stays reachable from its successor.
        referee->detach_solution();
        if (served != Served::RunnerReplaced) return 0;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    const auto arguments = read_referee_arguments(argc, argv);
    if (const int *status = std::get_if<int>(&arguments)) return *status;
    const auto &[probe, in_fd, out_fd, runner_fd, baseline_fd, spare_runner_fds] =
        std::get<RefereeArguments>(arguments);

    // Nothing of the same user may read this process's memory (ptrace, /proc/PID/mem).
    prctl(PR_SET_DUMPABLE, 0);
    const DeviceInfo device = probe_device();
    if (probe) {
        std::cout << nlohmann::json(device).dump() << std::endl;
        return 0;
    }
    if (in_fd < 0 || out_fd < 0 || runner_fd < 0 || baseline_fd < 0) {
        std::cerr << "gemm-referee: needs --channel-in, --channel-out, --runner and --baseline\n";
        return 2;
    }
    RefereeChannel judge(in_fd, out_fd);
    try {
        std::vector<int> runner_fds{runner_fd};
        runner_fds.insert(runner_fds.end(), spare_runner_fds.begin(), spare_runner_fds.end());
        return referee_session(judge, runner_fds, baseline_fd, device);
    } catch (const std::exception &e) {
        std::cerr << "gemm-referee: " << e.what() << "\n";
        return 3;
    }
}
