// Where a run's wall time went, as the judge saw it: the judge is measured like a kernel,
// and its own cost (start-up, processes, checks) is told beside the solution's. Filled by
// the session (command_line/modes/session.cpp), told by the reports (console_text.cpp).
#pragma once

#include <string>

namespace gemm {

struct RunTimeline {
    double waited_for_gpu_s = 0; // for another judge's turn on the GPU (judging/os/gpu_turn.hpp)
    double probe_s = 0;          // the GPU probe, before the compile (it picks the target)
    double compile_s = 0;        // nvcc, or finding the cached library
    // After the compile, until the solution's process had loaded it: the wait for the
    // referee's measured empty calls, then the runner's CUDA start, confinement and load.
    double waited_for_referee_s = 0, runner_start_s = 0;
    // Every case run (rank's and compare's rounds each count), as the supervisor timed each
    // from request to verdict.
    double cases_s = 0;
    int cases = 0;
    double total_s = 0; // from the judge's start to the report (what follows: stopping the processes)
    bool recorded() const { return total_s > 0; }
};

// Seconds since the judge's process started (a steady clock read at its static start).
double seconds_since_judge_start();

// "judge: 10.0 s in all: GPU probe 0.31 s, compile 1.20 s, …" — "" when not recorded.
std::string format_timeline(const RunTimeline &timeline);

} // namespace gemm
