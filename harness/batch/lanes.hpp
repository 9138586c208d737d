// The lanes of a batch: one per GPU, each judging one submission at a time, taken in order
// from one queue, so a GPU does nothing else while a submission's cases are timed on it;
// beside them, workers on the CPUs compile the submissions next in the queue, so that a
// lane's judge finds its library cached. Pure scheduling: what judging and compiling do is
// the caller's (submission_judge.hpp), and the CPU tests run it with a fake judge.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace gemm::batch {

struct LaneWork {
    // Judges submission `job` on lane `lane`.
    std::function<void(std::size_t job, std::size_t lane)> judge;
    // Compiles submission `job` ahead of its lane; may be empty (no compiling ahead).
    std::function<void(std::size_t job)> compile_ahead;
    // Called instead when judge() threw: the lane goes on with the next submission.
    std::function<void(std::size_t job, std::size_t lane, const std::string &why)> failed;
};

// Runs `jobs` submissions on `lanes` lanes with `compilers` workers compiling ahead (at
// most `lanes + compilers` submissions past the last one a lane has taken, so that nvcc
// never runs far ahead of the GPUs). Each submission is judged exactly once; one that a
// lane has taken is never compiled ahead, and a lane waits for a compile ahead of its
// submission that has begun. Returns when every submission is judged.
void run_lanes(std::size_t jobs, std::size_t lanes, std::size_t compilers, const LaneWork &work);

} // namespace gemm::batch
