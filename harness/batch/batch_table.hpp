// A batch's result, typed, and its two forms: the table a person reads (a leaderboard:
// the best first) and the JSON a program reads. Both are made from the same rows, whether
// the lanes of one host judged them or the tasks of a Slurm array (--merge).
#pragma once

#include "batch/batch_row.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace gemm::batch {

struct BatchResult {
    std::vector<BatchRow> rows;    // in leaderboard order once sorted
    std::vector<std::string> gpus; // the lanes' GPUs; empty for a merge
    std::string results_folder;    // where each row's report and output lie
    double wall_s = 0;             // the batch's own time; 0 for a merge
    int judged_before = 0;         // rows found settled in the results folder, not judged again
    std::string problem;           // --problem's, when the batch named one
};

// Sorts the rows as a leaderboard (ranks_before), each problem's apart: scores of two problems
// never compare, so a batch whose solutions answer several problems has a board for each.
void sort_as_leaderboard(BatchResult &result);

// The table: place, submission, worst verdict, the counts, the score where ranked, the
// time judging took and the GPU; then why for each row that is JE or no GPU, and one line
// of totals. At most 100 columns (a long name is shortened in the middle).
void print_batch_table(std::ostream &out, const BatchResult &result);

// The same as JSON: {"batch": {…}, "rows": [{"place": 1, …}, …]}.
std::string batch_json(const BatchResult &result);

} // namespace gemm::batch
