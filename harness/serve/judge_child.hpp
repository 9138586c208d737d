// A submission judged exactly as `./judge FILE` judges it: by the judge program itself, in
// a process group of its own that dies with the server and that Ctrl-C kills (ChildProcess),
// compiling and running the solution confined under the same supervisor. The server only
// reads what the judge reports: its --stream lines, and its console for the stage it is in.
#pragma once

#include "serve/submission.hpp"

#include <string>
#include <vector>

namespace gemm::serve {

struct JudgeProgram {
    std::string path;                     // gemm-judge, or the tests' fake that judges without a GPU
    std::vector<std::string> shared_args; // given to every run: the history file
};

// The judge's command line for a submission whose file is `source`, its events written to
// the descriptor `stream_fd`.
std::vector<std::string> judge_command(const JudgeProgram &program, JudgingKind kind, const std::string &source,
                                       int stream_fd);

struct JudgeEnding {
    int exit_status = -1; // the judge's (README: 0 all AC … 7 setup), or 128 + signal
    std::string console;  // the end of what it printed, for a run that ended without its summary
};

// Runs the judge on `source` for `submission`, adding each of its events to it as it comes,
// and a "stage" event when the judge waits for another judge's turn on the GPU.
JudgeEnding judge_submission(const JudgeProgram &program, Submission &submission, const std::string &source);

} // namespace gemm::serve
