// The results folder of a batch: for each submission its judge's JSON report, what the
// judge printed, and its row, written last and atomically, so that a row present is a
// submission judged to the end. A row is found again by a key of the source's bytes, the
// gemm-judge.conf of its folder and the judge's options: a batch started again skips every
// submission whose row is there and settled (batch_row.hpp), and judges an edited one anew.
#pragma once

#include "batch/batch_row.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm::batch {

// The key of judging `submission` with `judge_arguments`; nullopt when it cannot be read.
std::optional<std::string> submission_key(const std::string &submission,
                                          const std::vector<std::string> &judge_arguments);

class ResultStore {
  public:
    // Creates the folder; SetupError when it cannot be made or written.
    explicit ResultStore(std::string folder);

    const std::string &folder() const { return folder_; }
    // "<folder>/<file stem>-<key's first 16 digits>" + extension: named for the reader.
    std::string path_for(const std::string &submission, const std::string &key, const std::string &extension) const;
    // The row judged before, when it is there and settled.
    std::optional<BatchRow> settled_row(const std::string &submission, const std::string &key) const;
    // Writes the row (atomically: a .part renamed).
    void save(const BatchRow &row) const;

  private:
    std::string folder_;
};

// Every row in `folder` (the *.row.json files), as a batch or the tasks of a Slurm array
// left them; a file that is not a row is named in `problems`.
std::vector<BatchRow> rows_in(const std::string &folder, std::vector<std::string> &problems);

} // namespace gemm::batch
