#include "command_line/reporters/run_timeline.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

namespace gemm {

namespace {
// Read while the judge's statics are initialized, before main: the start of the command.
const auto judge_started = std::chrono::steady_clock::now();
} // namespace

double seconds_since_judge_start() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - judge_started).count();
}

std::string format_timeline(const RunTimeline &t) {
    if (!t.recorded()) return "";
    const double named =
        t.waited_for_gpu_s + t.probe_s + t.compile_s + t.waited_for_referee_s + t.runner_start_s + t.cases_s;
    // The wait for another judge is named only when there was one: it is not the judge's own cost.
    const std::string turn =
        t.waited_for_gpu_s > 0.005
            ? fmt::format("waiting for another judge's turn on the GPU {:.2f} s, ", t.waited_for_gpu_s)
            : "";
    return fmt::format(
        "judge: {:.2f} s in all: {}GPU probe {:.2f} s, compile {:.2f} s, waiting for the referee's "
        "empty calls {:.2f} s, the solution's process {:.2f} s, {} case run(s) {:.2f} s, the rest {:.2f} s\n",
        t.total_s, turn, t.probe_s, t.compile_s, t.waited_for_referee_s, t.runner_start_s, t.cases, t.cases_s,
        std::max(0.0, t.total_s - named));
}

} // namespace gemm
