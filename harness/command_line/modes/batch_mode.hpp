// ./judge batch: many submissions judged on one host, one lane per GPU (harness/batch/),
// into one leaderboard table and one JSON; and --merge, the same table from the rows the
// tasks of a Slurm array left (scripts/slurm/).
#pragma once

#include "command_line/options/cli.hpp"

namespace gemm {

// `args` are the words after `batch`. The exit status: 0 when every submission has a
// verdict about it (whatever it is), 5 when the judge failed on one (JE), 6 when nothing
// could run for want of a GPU, 64 for a bad command line, 7 for a results folder that
// cannot be written.
int run_batch_command(const std::vector<std::string> &args, const CommandLineDefaults &defaults);

} // namespace gemm
