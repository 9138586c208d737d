// One submission's line in a batch: what its judge said (verdict counts, the worst, the
// score of a rank run), where it ran and how long judging took, and where its full report
// lies. Made from how the judge's process ended and the JSON report it wrote, so a judge
// that crashed, hung or refused its command line is a row too, never a stop.
#pragma once

#include "judge_child/judge_child.hpp"
#include "verification/verdict.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace gemm::batch {

struct BatchRow {
    std::string submission;            // the path as the batch was given it
    std::string key;                   // content hash and judge options (result_store.hpp)
    std::string gpu;                   // the lane it ran on: "0", "GPU-…", or "none"
    std::map<std::string, int> counts; // verdict → number of cases
    // The worst verdict; nullopt when there was no GPU to judge on (the solution was still
    // compiled, so a CE is still a verdict): a state of the row, not a verdict.
    std::optional<Verdict> worst;
    std::optional<double> score;      // rank: the geometric mean of cuBLAS time / the solution's
    std::optional<double> geomean_ms; // rank: the geometric mean of the ranked shapes' times
    int judge_exit_status = -1;       // -1: it did not exit (killed, or ran past its time)
    double wall_s = 0;                // judging it, compile included
    std::string report;               // its --json report, beside the row
    std::string output;               // what it printed (its table), beside the row
    std::string note;                 // why, where the worst verdict needs it (JE, no GPU)
    std::string problem;              // the problem its report names; "" when it left none

    bool no_gpu() const { return !worst; }
    // A verdict about the solution itself; a row that is not (JE, no GPU) is judged again
    // when the batch starts again.
    bool settled() const;
    int cases() const;
    // "AC" … "JE", or "no GPU".
    std::string worst_text() const;
};

// The row of a judge that ended so and left `report` (the JSON text it wrote, "" when none).
BatchRow row_from_judge(const judge_child::JudgeEnding &ending, const std::string &report);

// The order of a leaderboard: the worst verdict in the verdicts' order (no GPU last), then the score
// (highest first), then the cases accepted (most first), then the name.
bool ranks_before(const BatchRow &a, const BatchRow &b);

void to_json(nlohmann::json &j, const BatchRow &row);
void from_json(const nlohmann::json &j, BatchRow &row);

} // namespace gemm::batch
