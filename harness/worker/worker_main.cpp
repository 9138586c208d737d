// The worker process: loads the compiled solution, says hello (device, whether solve()
// exists), then runs the testcases the supervisor sends, one result per case. It is
// the only process that runs solution code.
#include "channel/channel.hpp"
#include "channel/protocol.hpp"
#include "worker/case_runner.hpp"
#include "worker/device_info.hpp"

#include <CLI/CLI.hpp>
#include <dlfcn.h>
#include <iostream>

namespace {

using namespace gemm;

// Loads the library and finds solve(); returns why not, in the user's terms.
std::string load_solve(const std::string &library, SolveFunction &solve) {
    void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return std::string("cannot load the compiled solution: ") + dlerror();
    solve = reinterpret_cast<SolveFunction>(dlsym(handle, "solve"));
    if (solve) return "";
    // The C++ name of solve(const float*, const float*, float*, int, int, int).
    if (dlsym(handle, "_Z5solvePKfS0_Pfiii"))
        return "the library has no extern \"C\" solve symbol: solve() is compiled with a C++ (mangled) name; "
               "declare it as extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)";
    return "the library has no extern \"C\" solve symbol: define "
           "extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)";
}

// The request, or why it cannot be run: a request the worker cannot read or follow
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

int serve(WorkerChannel &channel, SolveFunction solve, const DeviceInfo &device) {
    CaseRunner runner(solve, channel, device);
    while (auto message = channel.receive()) {
        channel.set_nonce(message->value("nonce", std::uint64_t{0}));
        std::string problem;
        const auto request = readable_request(*message, problem);
        if (!request) {
            CaseResult bad;
            bad.verdict = Verdict::JE;
            bad.detail = "the judge sent a request the worker cannot run: " + problem;
            channel.send({{"event", event::result}, {"result", bad}, {"worker_exits", false}});
            continue;
        }
        const TestCase &tc = request->testcase;
        CaseResult result;
        bool worker_exits = false;
        try {
            result = runner.run(*request);
        } catch (const SolveFailure &e) {
            result.verdict = Verdict::RE;
            result.detail = e.what();
            worker_exits = true; // the CUDA context may be unusable: a fresh worker takes over
        } catch (const std::exception &e) {
            result.verdict = Verdict::JE;
            result.detail = std::string("the judge failed on this case: ") + e.what();
            worker_exits = true;
        }
        result.name = tc.name;
        result.M = tc.M;
        result.N = tc.N;
        result.K = tc.K;
        channel.send({{"event", event::result}, {"result", result}, {"worker_exits", worker_exits}});
        if (worker_exits) return 0;
    }
    return 0;
}

} // namespace

int main(int argc, char **argv) {
    CLI::App app{"gemm-worker: runs a compiled solution for the judge (not meant to be run by hand)"};
    std::string library;
    bool probe = false;
    int in_fd = -1, out_fd = -1;
    app.add_flag("--probe", probe, "print the GPU's description as JSON and exit");
    app.add_option("library", library, "the compiled solution (.so)");
    app.add_option("--channel-in", in_fd, "file descriptor the supervisor writes testcases to");
    app.add_option("--channel-out", out_fd, "file descriptor for results");
    CLI11_PARSE(app, argc, argv);

    const DeviceInfo device = probe_device();
    if (probe) {
        std::cout << nlohmann::json(device).dump() << std::endl;
        return 0;
    }
    if (in_fd < 0 || out_fd < 0 || library.empty()) {
        std::cerr << "gemm-worker: needs a library, --channel-in and --channel-out\n";
        return 2;
    }
    WorkerChannel channel(in_fd, out_fd);
    // The supervisor's first line is the nonce of this worker's hello, read before any
    // solution code runs.
    const auto greeting = channel.receive();
    if (!greeting) return 2;
    channel.set_nonce(greeting->at("nonce").get<std::uint64_t>());
    SolveFunction solve = nullptr;
    const std::string solve_error = load_solve(library, solve);
    channel.send({{"event", event::hello}, {"device", device}, {"solve_error", solve_error}});
    if (!solve_error.empty() || !device.present) return 0;
    try {
        return serve(channel, solve, device);
    } catch (const std::exception &e) {
        std::cerr << "gemm-worker: " << e.what() << "\n";
        return 3;
    }
}
