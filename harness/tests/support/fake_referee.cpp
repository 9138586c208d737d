// A fake gemm-referee on a machine without a GPU: the judge's side of the
// start-up and the case protocol as the real one speaks it, and the runner driven
// through the real RunnerLink over shared host memory (a memfd) instead of GPU memory.
// Its facts come from its own FP64 check of what C holds after the runner says
// "returned" (verification/check.hpp), never from anything the runner says, as the real
// referee's do; the judge decides the verdict from them.
// A failed solution's runner is replaced on a spare socket as the real referee does
// (runner_replaced), while one is left.
// Usage: fake_referee --channel-in=FD --channel-out=FD --runner=FD --baseline=FD
//        [--spare-runners=FD,FD,…]
#include "channel/channel.hpp"
#include "channel/protocol.hpp"
#include "channel/runner_protocol.hpp"
#include "verification/check.hpp"
#include "verification/reference.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace gemm;

int fd_argument(int argc, char **argv, const char *prefix) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) return std::atoi(argv[i] + std::strlen(prefix));
    return -1;
}

CaseResult run_case(RefereeChannel &judge, RunnerLink &runner, const CaseRequest &request) {
    const TestCase &tc = request.testcase;
    const CaseInputs inputs = case_inputs(tc, checked_input_set);
    const std::size_t a = inputs.A.size(), b = inputs.B.size(), c = std::size_t(tc.M) * tc.K;
    const std::size_t bytes = (a + b + c) * sizeof(float);
    const int fd = memfd_create("fake-arena", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, static_cast<off_t>(bytes)) != 0) throw std::runtime_error("memfd");
    auto *arena = static_cast<float *>(mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
    std::memcpy(arena, inputs.A.data(), a * sizeof(float));
    std::memcpy(arena + a, inputs.B.data(), b * sizeof(float));
    std::memset(arena + a + b, 0xFF, c * sizeof(float)); // the judge's poison: unwritten elements show
    CaseResult r;
    RunnerReply reply = runner.map(fd, bytes);
    close(fd);
    CallOrder order;
    order.M = tc.M;
    order.N = tc.N;
    order.K = tc.K;
    order.dims = tc.dims;
    order.b_offset = a * sizeof(float);
    order.c_offset = (a + b) * sizeof(float);
    // A case named "calibration-first…" gets the judge's calibration call in the solution's
    // process before solve(), as the real referee makes them between a short run's calls.
    if (reply.kind == RunnerReply::Kind::Done && tc.name.rfind("calibration-first", 0) == 0) {
        CallOrder calibration = order;
        calibration.work = RunnerWork::Calibration;
        judge.send({{"event", event::calibration}});
        reply = runner.call(calibration);
        judge.send({{"event", event::judge}});
    }
    if (reply.kind == RunnerReply::Kind::Done) {
        judge.send({{"event", event::call}});
        reply = runner.call(order);
        judge.send({{"event", event::judge}});
    }
    // Facts, as the real referee sends them: the judge decides the verdict.
    if (reply.kind == RunnerReply::Kind::Lost) {
        r.facts.ending = RefereeWork::SolutionFailed;
        r.runner_lost = true;
        r.failed_call = 1;
    } else if (reply.kind != RunnerReply::Kind::Done) {
        r.facts.ending = RefereeWork::SolutionFailed;
        r.facts.why = reply.kind == RunnerReply::Kind::Violation
                          ? "the solution's process broke the runner protocol: " + reply.why
                          : reply.why;
    } else {
        const std::vector<float> C(arena + a + b, arena + a + b + c);
        const Reference reference = reference_on_cpu(inputs.A, inputs.B, tc.M, tc.N, tc.K);
        r.check = compare_output(C.data(), reference, request.policy.precision);
        if (tc.site_tolerance)
            r.check->site = site_allclose(C.data(), reference.value.data(), C.size(), *tc.site_tolerance);
        r.facts.ending = RefereeWork::Completed;
        r.facts.checked_integrity = IntegrityCheck{};
    }
    munmap(arena, bytes);
    return r;
}

} // namespace

// --runner's socket, then --spare-runners' in order.
std::vector<int> runner_fds(int argc, char **argv) {
    std::vector<int> fds{fd_argument(argc, argv, "--runner=")};
    for (int i = 1; i < argc; ++i) {
        const char *prefix = "--spare-runners=";
        if (std::strncmp(argv[i], prefix, std::strlen(prefix)) != 0) continue;
        for (const char *at = argv[i] + std::strlen(prefix); *at;) {
            char *end = nullptr;
            fds.push_back(static_cast<int>(std::strtol(at, &end, 10)));
            at = *end == ',' ? end + 1 : end;
        }
    }
    return fds;
}

// The cases of one runner, until the judge closes the channel (0), the runner fails with a
// spare left (1: replace it), or without one (2).
int serve(RefereeChannel &judge, RunnerLink &solution, bool spare_left) {
    while (auto message = judge.receive()) {
        const auto request = message->get<CaseRequest>();
        judge.set_nonce(request.nonce);
        const CaseResult r = run_case(judge, solution, request);
        const bool failed = r.facts.ending == RefereeWork::SolutionFailed;
        judge.send({{"event", event::result},
                    {"result", r},
                    {"worker_exits", failed && !spare_left},
                    {"runner_replaced", failed && spare_left}});
        if (failed) return spare_left ? 1 : 2;
    }
    return 0;
}

int main(int argc, char **argv) {
    RefereeChannel judge(fd_argument(argc, argv, "--channel-in="), fd_argument(argc, argv, "--channel-out="));
    RunnerLink baseline(fd_argument(argc, argv, "--baseline="));
    const auto greeting = judge.receive();
    if (!greeting) return 2;
    judge.set_nonce(greeting->at("nonce").get<std::uint64_t>());
    if (baseline.hello().kind != RunnerReply::Kind::Done) return 3;
    baseline.stop_between_exchanges(greeting->value("baseline_group", 0));
    DeviceInfo device;
    device.present = true;
    device.name = "Fake GPU";
    judge.send({{"event", event::hello}, {"device", device}, {"failure", ""}});
    const std::vector<int> fds = runner_fds(argc, argv);
    for (std::size_t i = 0; i < fds.size(); ++i) {
        const auto runner_started = judge.receive();
        if (!runner_started) return 0;
        judge.set_nonce(runner_started->value("nonce", std::uint64_t{0}));
        RunnerLink solution(fds[i]);
        const RunnerReply hello = solution.hello();
        judge.send({{"event", event::runner},
                    {"lost", hello.kind == RunnerReply::Kind::Lost},
                    {"why", hello.kind == RunnerReply::Kind::Violation ? hello.why : ""},
                    {"solve_error", hello.solve_error}});
        if (hello.kind != RunnerReply::Kind::Done || !hello.solve_error.empty()) return 0;
        solution.stop_between_exchanges(runner_started->value("group", 0));
        if (serve(judge, solution, i + 1 < fds.size()) != 1) return 0;
    }
    return 0;
}
