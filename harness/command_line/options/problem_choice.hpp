// Which problem a run judges, decided here once for every command that judges: the problem
// is its suite's (testcases/<site>/<slug>/problem.json, docs/problems.md), so choosing one
// is choosing the suite folder. --problem NAME names it, or `problem NAME` in the solution's
// folder's gemm-judge.conf; else a --testcases folder says it;
// else the solution's extern "C" entry point, read from its source, picks the one problem it
// answers; else the default problem, as before there were others.
#pragma once

#include "command_line/options/cli.hpp"

#include <string>

namespace gemm {

// Sets options.selection.testcases_dir to the chosen problem's folder. UsageError for a
// name no problem has (with the nearest), a problem this judge cannot judge yet (with what
// it lacks), or an entry point several problems share (with their names).
void choose_problem(JudgeOptions &options, const std::string &checkout_testcases);

} // namespace gemm
