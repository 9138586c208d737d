// gemm-runner: the process that calls solve(). It starts the GPU, confines itself
// (runner/confinement.hpp) and hands the judge the proof of it, and only then loads
// the solution, so no solution code ever runs unconfined. It holds nothing that
// decides: no seed, no reference, no check, no clock. With --baseline it loads no
// solution and calls cuBLAS or nothing, for the referee's baseline and empty calls.
#include "channel/entry_plan.hpp"
#include "channel/socket_channel.hpp"
#include "channel/worker_arguments.hpp"
#include "runner/confinement.hpp"
#include "runner/cuda_backend.hpp"
#include "runner/runner_loop.hpp"

#include <iostream>
#include <optional>
#include <unistd.h>

int main(int argc, char **argv) {
    using namespace gemm;
    const auto arguments = read_runner_arguments(argc, argv);
    if (const int *status = std::get_if<int>(&arguments)) return *status;
    const auto &[library, unconfined_reason, entry, referee_fd, monitor_fd, baseline] =
        std::get<RunnerArguments>(arguments);
    if (!baseline && (library.empty() || monitor_fd < 0)) {
        std::cerr << "gemm-runner: needs a library and --monitor, or --baseline\n";
        return 2;
    }

    SocketChannel referee(referee_fd);
    // The baseline runner never loads a solution: it is the judge's own code throughout.
    std::optional<RunnerConfinement> confinement;
    if (!baseline) confinement.emplace(unconfined_reason);
    CudaBackend backend;
    const std::string gpu_error = backend.start(baseline);
    std::string solve_error = gpu_error;
    if (!baseline) {
        // Confined before the library is opened: its constructors already run inside.
        // Without a GPU it is still loaded, so a library without solve() is CE anywhere.
        if (!confinement->finish(monitor_fd)) {
            std::cerr << "gemm-runner: could not hand the judge its confinement\n";
            return 3;
        }
        const auto plan = parse_entry_plan(entry.empty() ? entry_plan_text(entry_plan_of(default_problem())) : entry);
        solve_error = plan ? backend.load(library, *plan) : "the judge gave the runner a bad --entry: " + entry;
    }
    referee.send({{"event", runner_event::hello}, {"solve_error", solve_error}});
    if (!solve_error.empty() || !gpu_error.empty()) return 0;
    return serve_referee(referee, backend);
}
