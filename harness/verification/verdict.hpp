// The verdicts of the judge, in one table: each verdict's name, its place in the order (best
// to worst), the exit status it maps to, its colour on the terminal and on the page, and the
// JUnit element it is reported as. The console, the JSON report, JUnit, batch's leaderboard
// and the web page (which reads the table from the server) all take these from here.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace gemm {

// Ordered from best to worst: the exit status of a run is that of its worst verdict.
enum class Verdict { AC, WA, TLE, RE, CE, JE };

// The colours the console uses (a terminal's eight), so that the page matches the console.
enum class TerminalColour { green, red, yellow, magenta, cyan };

// Exit statuses of ./judge. AC is 0; every other verdict has its own status so a
// script can tell "wrong" from "crashed" from "the judge broke" without parsing.
namespace exit_status {
constexpr int all_accepted = 0;
constexpr int wrong_answer = 1;
constexpr int time_limit = 2;
constexpr int runtime_error = 3;
constexpr int compile_error = 4;
constexpr int judge_error = 5;
// Not a verdict: nothing was judged (the solution was still compiled, so a CE is still 4).
constexpr int no_gpu = 6;
// The machine or its configuration, not the solution: nvcc cannot run, the compile cache
// folder is unusable. The message names the option or variable that changes it.
constexpr int setup = 7;
// A bad command line: an unknown or malformed option, options that conflict.
constexpr int usage = 64;
} // namespace exit_status

struct VerdictRow {
    Verdict verdict;
    const char *name;          // "AC"
    const char *meaning;       // a few words: "accepted"
    int exit_status;           // ./judge's when it is the worst verdict
    TerminalColour colour;     // the console's colour
    bool bold;                 // … in bold
    const char *page_colour;   // the page's (CSS), the console's colour as a browser shows it
    const char *junit_element; // JUnit's <testcase> child: "" (passed), "failure" or "error"
};

// Every verdict, best first: a verdict's place in it is its place in the order.
const std::array<VerdictRow, 6> &verdict_table();
const VerdictRow &verdict_row(Verdict v);

const char *verdict_name(Verdict v);
std::optional<Verdict> parse_verdict(const std::string &name);
Verdict worse(Verdict a, Verdict b);
// The place of `v` in the order, 0 for AC.
int verdict_rank(Verdict v);

int exit_status_for(Verdict worst);
// The worst verdict a judge that exited with `status` had; nullopt for no GPU (nothing was
// judged). A status that is no verdict's (setup, a bad command line, a signal) is JE: the
// judge, not the solution, did not get to a verdict.
std::optional<Verdict> verdict_of_exit_status(int status);

} // namespace gemm
