// `./judge case new|validate|show|export|import`: the testcase-authoring commands.
#pragma once

#include "cli.hpp"

namespace gemm {

// Runs one authoring command against the suite; returns the exit status (0, or 5 for
// an invalid testcase, 64 for a bad request).
int run_case_command(const CaseCommandOptions &command, const std::string &suite_root);

} // namespace gemm
