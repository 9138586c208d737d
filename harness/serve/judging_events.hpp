// A submission judged by the judge program as a child (judge_child/, the module batch uses
// too), turned into the submission's events: the judge's --stream lines as they come, and a
// stage read from its console when it waits for its turn on the GPU.
#pragma once

#include "judge_child/judge_child.hpp"
#include "serve/submission.hpp"

#include <string>
#include <vector>

namespace gemm::serve {

struct JudgeProgram {
    std::string path;                     // gemm-judge, or a stand-in that judges without a GPU in tests
    std::vector<std::string> shared_args; // given to every run: the history file
    // serve --testcases: the default problem's suite its judges read (its Testcases tab's);
    // empty for the checkout's. Another problem's judge reads that problem's own.
    std::string default_suite;
};

// The judge's command line for a submission whose file is `source`, with --problem where the
// submission names its problem (the stream's option is added by judge_child::run_judge).
std::vector<std::string> judge_command(const JudgeProgram &program, JudgingKind kind, const std::string &source,
                                       const std::string &problem);

// Runs the judge on `source` for `submission`, adding each of its events to it as it comes,
// and a "stage" event when the judge waits for another judge's turn on the GPU.
judge_child::JudgeEnding judge_submission(const JudgeProgram &program, Submission &submission,
                                          const std::string &source);

} // namespace gemm::serve
