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

struct JudgeOptions {
    std::string solution;
    std::vector<std::string> cases;      // names, or categories such as "perf"
    std::vector<std::string> categories; // which categories run; huge only when named
    std::string testcases_dir;
    std::string arch;
    std::string json_path;
    std::string junit_path;
    std::string stream_path; // --stream FILE|-: one JSON line per event as it happens
    std::string nvcc;
    std::string cache_dir;
    std::vector<std::string> include_dirs; // --include, absolute
    double compile_timeout_s = 120;        // --compile-timeout
    double compile_memory_gib = 8;         // --compile-memory
    CaseRunOptions case_run; // how every case runs: baseline, precision, time budget, reveal, shrink
    bool show_output = false;
    bool verbose = false;    // --verbose: the method lines, every figure of how it was verified and timed
    bool keep_going = false; // --keep-going: every case, however many crash or hang (else fail_fast_limit)
    bool list = false;
    bool sanitize = false;
    // An ad-hoc generated case instead of the suite: --shape MxNxK [--seed S] [--data …].
    std::vector<int> shape;
    std::uint64_t seed = 1;
    std::string data = "uniform -1 1";
    int stress = 0; // number of random shapes; 0: no stress run
    int stress_max_size = 256;
    std::optional<CaseCommandOptions> case_command;
    // The competitive modes: `./judge rank SOL`, `compare OLD NEW`, `history [SOL]`, `leaderboard`.
    std::string mode;            // "" for judging, else rank, compare, history, leaderboard
    std::string other;           // compare: the new side (a .cu, a --json report or a history #id)
    std::string plot_path;       // --plot FILE.png|.svg (rank, compare, history)
    std::string history_path;    // --history FILE; default: the user's data folder
    bool record_history = true;  // --no-history
    double spread_target = 0.01; // rank/compare: repeat until every shape's spread is below this
    double rank_budget_s = 120;  // rank/compare: … or this many seconds have passed
    std::string profile_case;    // rank --profile CASE: Nsight Compute on that case
    std::string version;         // the judge's own, for the history
    std::string cache_command;   // `./judge cache info|clean`; empty otherwise
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

// "17x33x5" or "17×33×5" → {17, 33, 5}; empty when malformed.
std::vector<int> parse_shape(const std::string &text);

} // namespace gemm
