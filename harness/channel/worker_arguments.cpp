#include "channel/worker_arguments.hpp"

#include <CLI/CLI.hpp>

namespace gemm {

namespace {

// `a` as the options filled it in.
template <typename Arguments>
std::variant<Arguments, int> parsed(CLI::App &app, int argc, char **argv, const Arguments &a) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e);
    }
    return a;
}

} // namespace

std::variant<RefereeArguments, int> read_referee_arguments(int argc, char **argv) {
    CLI::App app{"gemm-referee: the judge's trusted GPU process (not meant to be run by hand)"};
    RefereeArguments a;
    app.add_flag("--probe", a.probe, "print the GPU's description as JSON and exit");
    app.add_option("--channel-in", a.in_fd, "file descriptor the judge writes to");
    app.add_option("--channel-out", a.out_fd, "file descriptor for the judge");
    app.add_option("--runner", a.runner_fd, "socket to the solution's runner");
    app.add_option("--baseline", a.baseline_fd, "socket to the baseline runner");
    app.add_option("--spare-runners", a.spare_runner_fds,
                   "sockets for the solution's runners that replace a failed one")
        ->delimiter(',');
    return parsed(app, argc, argv, a);
}

std::variant<RunnerArguments, int> read_runner_arguments(int argc, char **argv) {
    CLI::App app{"gemm-runner: calls a compiled solution for the judge's referee (not meant to be run by hand)"};
    RunnerArguments a;
    app.add_option("library", a.library, "the compiled solution (.so)");
    app.add_option("--referee", a.referee_fd, "socket to the referee")->required();
    app.add_option("--monitor", a.monitor_fd, "socket to the judge for the confinement's listener");
    app.add_flag("--baseline", a.baseline, "load no solution: call cuBLAS SGEMM or nothing");
    app.add_option("--entry", a.entry, "the entry point and where its arguments come from");
    app.add_option("--relaxed", a.unconfined_reason, "confine less, for this tool (compute-sanitizer, ncu)");
    return parsed(app, argc, argv, a);
}

} // namespace gemm
