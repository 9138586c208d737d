// The verdicts of the judge and the exit status each one maps to.
#pragma once

#include <optional>
#include <string>

namespace gemm {

// Ordered from best to worst: the exit status of a run is that of its worst verdict.
enum class Verdict { AC, WA, TLE, RE, CE, JE };

const char *verdict_name(Verdict v);
std::optional<Verdict> parse_verdict(const std::string &name);
Verdict worse(Verdict a, Verdict b);

// Exit statuses of ./judge. AC is 0; every other verdict has its own status so a
// script can tell "wrong" from "crashed" from "the judge broke" without parsing.
namespace exit_status {
constexpr int all_accepted = 0;
constexpr int wrong_answer = 1;
constexpr int time_limit = 2;
constexpr int runtime_error = 3;
constexpr int compile_error = 4;
constexpr int judge_error = 5;
constexpr int no_gpu = 6;
// The machine or its configuration, not the solution: nvcc cannot run, the compile cache
// folder is unusable. The message names the option or variable that changes it.
constexpr int setup = 7;
// A bad command line: an unknown or malformed option, options that conflict.
constexpr int usage = 64;
} // namespace exit_status

int exit_status_for(Verdict worst);

} // namespace gemm
