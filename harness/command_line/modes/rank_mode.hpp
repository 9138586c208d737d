// The competitive modes of ./judge: rank (a score against cuBLAS on the ranked set),
// compare (two solutions, or two runs, shape by shape with a significance test),
// history and leaderboard (what the history database holds).
#pragma once

#include "command_line/options/cli.hpp"

namespace gemm {

int rank(const JudgeOptions &options);
int compare(const JudgeOptions &options);
int show_history(const JudgeOptions &options);
int show_leaderboard(const JudgeOptions &options);

} // namespace gemm
