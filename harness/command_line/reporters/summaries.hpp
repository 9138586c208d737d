// What a run found beyond its cases, as typed values: the modes fill these in and tell the
// reporters (reporter.hpp), and each reporter formats them its own way — the console as text
// (summary_text.cpp), --json and the history as JSON (summary_json.cpp), --plot as a picture.
// No mode builds text or JSON of its own, so a new output (a web page) formats the same
// values the console does.
#pragma once

#include "command_line/history/history.hpp"
#include "common/shape.hpp"
#include "judging/shrink.hpp"
#include "measurement/score.hpp"
#include "measurement/significance.hpp"
#include "verification/case_result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

// The run found no GPU: the solution was compiled (and loaded when `loaded`), nothing ran.
struct NoGpu {
    std::string why;             // MissingGpu::sentence(): what is missing and what to check
    std::string solution_file;   // its file name
    std::string arch;            // what nvcc compiled for; empty: nvcc's default target
    bool loaded = false;         // its solve() was found
    std::string load_failure;    // why not, when not
    std::string entry = "solve"; // the problem's entry point
};

// The smallest failing shape the shrinker found for a failing case, and how to run it again.
struct ShrinkFinding {
    std::string case_name;
    ShrinkResult result;
    std::string thresholds_in_words; // describe_thresholds: where the failure starts
    std::string command;             // reproduce_command: ./judge … --shape MxNxK …
};

// --stress: random shapes until the first failure.
struct StressFinding {
    std::size_t shapes_run = 0, shapes_planned = 0;
    std::optional<std::string> failed; // the failing shape's case name; none when all were AC
    int max_size = 0;
    std::uint64_t seed = 0;
};

// One call of solve() under Nsight Compute.
struct KernelProfile {
    std::string kernel;     // the longest kernel of the call
    int kernels = 0;        // how many the call launched
    double duration_ms = 0; // all of them together
    double ffma_flop = 0;   // 2 × FFMA + FADD + FMUL thread instructions
    double dram_percent = 0, sm_percent = 0, occupancy_percent = 0;
    double registers = 0, shared_bytes = 0; // per thread, per block (static + dynamic)
};

struct ProfileFinding {
    std::string case_name;
    Shape shape;
    KernelProfile profile;
    double judge_median_ms = 0; // the judge's median for the same case, beside ncu's duration
};

// rank: every shape of the ranked set timed in rounds beside cuBLAS, and the score.
struct RankRow {
    CaseResult result;                    // its timing and baseline pooled over the rounds
    std::vector<std::size_t> round_sizes; // how many of timing's samples each round gave
};

struct RankSummary {
    std::string solution; // its path as given
    std::string gpu;
    std::vector<RankRow> rows;
    Score score;
    RatioInterval noise; // how far noise could move the score: rounds and calls of both sides
    int rounds = 0;
    bool budget_spent = false; // --rank-budget ran out before every shape was steady
    double worst_spread = 0;   // then: the largest spread left
};

// compare: one side's calls of one shape, round by round, as the clock measured them and
// after its own measured cost of the path was taken off, with those costs.
struct SideRounds {
    Rounds rounds_ms, raw_rounds_ms;
    std::vector<double> offsets_ms;
};

struct ComparedShape {
    std::string name;
    Shape shape;
    double old_ms = 0, new_ms = 0, p_value = 1;
    RatioInterval speedup; // median(old) / median(new), with its interval
    bool significant = false;
    bool on_raw_times = false; // tested on the clock's times as measured
    SideRounds old_side, new_side;
};

struct CompareSummary {
    std::string old_name, new_name;
    bool live = false; // both sides timed here, round by round (else two reports)
    std::vector<ComparedShape> shapes;
    double family_level = 0.99; // every shape's interval together
};

// history: the attempts with their change of score since the solution's previous and best.
struct ScoreChange {
    double relative = 0;      // now / then − 1
    bool significant = false; // outside the noise of both attempts
};

struct HistoryRow {
    Attempt attempt;
    std::optional<ScoreChange> since_previous, since_best;
};

struct HistoryList {
    std::string solution; // the filter as given; empty: every solution
    std::vector<HistoryRow> rows;
};

// leaderboard: each GPU's best ranked attempt of every solution at one problem, best first.
struct Leaderboard {
    std::string gpu, problem;
    std::vector<Attempt> places;
};
struct Leaderboards {
    std::vector<Leaderboard> boards; // by GPU name, then problem
};

} // namespace gemm
