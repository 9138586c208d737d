// The command line of ./judge (CLI11) → a plain options struct.
#pragma once

#include "judging/case_policy.hpp"
#include "testcases/case_command.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace gemm {

// Which cases run: the suite's (a selection of it), one generated case, or a stress run.
struct CaseSelection {
    std::vector<std::string> cases;      // --case: names, or categories such as "perf"
    std::vector<std::string> categories; // --category: which categories run; huge only when named
    std::string testcases_dir;           // --testcases; or the folder of --problem's cases (problem_choice.hpp)
    std::string problem;                 // --problem NAME, or `./judge problems NAME`
    bool list = false;                   // --list: name them, run nothing
    // An ad-hoc generated case instead of the suite: --shape MxNxK [--seed S] [--data …].
    std::vector<int> shape;
    std::uint64_t seed = 1;
    std::string data = "uniform -1 1"; // the chosen problem's default_data() unless data_given
    bool data_given = false;           // --data on the command line, kept over any problem's default
    int stress = 0;                    // --stress: number of random shapes; 0: no stress run
    int stress_max_size = 256;
};

// How the solution is compiled.
struct CompileChoices {
    std::string arch;                      // --arch; empty: the GPU's own
    std::string nvcc;                      // --nvcc
    std::string cache_dir;                 // --cache-dir
    std::vector<std::string> include_dirs; // --include, absolute
    double timeout_s = 120;                // --compile-timeout
    double memory_gib = 8;                 // --compile-memory
};

// What is written beside the console's table.
struct ReportChoices {
    std::string json_path;    // --json
    std::string junit_path;   // --junit
    std::string stream_path;  // --stream: one JSON line per event (./judge serve reads it)
    std::string plot_path;    // --plot FILE.png|.svg (rank, compare, history)
    bool show_output = false; // --show-output
    bool verbose = false;     // --verbose: the method lines, every figure of how it was verified and timed
};

// rank and compare: the rounds over the ranked set.
struct RoundChoices {
    std::string other;           // compare: the new side (a .cu, a --json report or a history #id)
    double spread_target = 0.01; // repeat until every shape's spread is below this
    double budget_s = 120;       // --rank-budget: … or this many seconds have passed
    std::string profile_case;    // rank --profile CASE: Nsight Compute on that case
};

// Where attempts are recorded.
struct HistoryChoices {
    std::string path;   // --history FILE; default: the user's data folder
    bool record = true; // --no-history
};

// The command line, by concern.
struct JudgeOptions {
    std::string mode;     // "" for judging, else rank, compare, history, leaderboard
    std::string solution; // the .cu (or compare's old side)
    CaseSelection selection;
    CompileChoices compile;
    CaseRunOptions case_run; // how every case runs: baseline, precision, time budget, reveal, shrink
    ReportChoices reports;
    RoundChoices rounds;
    HistoryChoices history;
    bool keep_going = false; // --keep-going: every case, however many crash or hang (else fail_fast_limit)
    bool sanitize = false;   // --sanitize
    std::optional<CaseCommandOptions> case_command; // ./judge case …
    std::string cache_command;                      // `./judge cache info|clean`; empty otherwise
    std::string version;                            // the judge's own, for the history
};

// Where the judge finds what it was built with: the suite and nvcc of its checkout.
struct CommandLineDefaults {
    std::string testcases_dir;
    std::string nvcc;
    std::string version; // printed by --version
};

// The options, or the exit status to return at once (--help, --version, or a usage
// error already explained on stderr, which names the option).
std::variant<JudgeOptions, int> parse_command_line(int argc, const char *const *argv,
                                                   const CommandLineDefaults &defaults);

// "17x33x5", "17X33X5", "17×33×5" or "17 33 5" → {17, 33, 5}: --shape's and case new's sizes: whole numbers crossed by
// x, X or ×, or apart, as many as given (how many the problem takes is checked once it is chosen); empty when one is
// not.
std::vector<int> parse_sizes(const std::string &text);

} // namespace gemm
