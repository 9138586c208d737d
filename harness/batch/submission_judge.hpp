// One submission judged by its own judge process (judge_child/), exactly as `./judge FILE
// --json REPORT` judges it alone: its compile, its referee and runners, its confinement and
// its turn on the GPU are that process's, so a submission that crashes, hangs, fills the
// GPU's memory or attacks the judge costs its own row and nothing on another lane. The judge
// sees only its lane's GPU (CUDA_VISIBLE_DEVICES), and is stopped with everything it started
// when it runs past the batch's limit.
#pragma once

#include "batch/batch_row.hpp"
#include "batch/gpu_lanes.hpp"
#include "batch/result_store.hpp"

#include <string>
#include <vector>

namespace gemm::batch {

struct JudgeCommand {
    std::string program;                // gemm-judge, or the tests' fake (GEMM_JUDGE_BATCH_JUDGE)
    bool rank = false;                  // `rank FILE`: a score for every submission all AC
    std::vector<std::string> arguments; // the judge's own options, the same for every submission
    double timeout_s = 3600;            // per submission, compile included
};

// The judge's command line for `submission`, its report written to `report`.
std::vector<std::string> judge_command_line(const JudgeCommand &command, const std::string &submission,
                                            const std::string &report);

// Judges `submission` on `lane`, keeping its report and output in `store`; the row, with
// where it ran and for how long. Throws only when the results folder cannot be written.
BatchRow judge_submission(const JudgeCommand &command, const GpuLane &lane, const std::string &submission,
                          const std::string &key, const ResultStore &store);

// Compiles `submission` for `target` into the judge's compile cache, on the CPUs: the judge
// run with no GPU visible, which compiles and stops ("" : nvcc's default target, as a
// judge without a GPU chooses).
void compile_ahead(const JudgeCommand &command, const std::string &target, const std::string &submission);

} // namespace gemm::batch
