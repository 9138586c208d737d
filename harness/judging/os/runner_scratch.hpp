// The runner's folder: its working directory, HOME and TMPDIR, the only place its
// confinement lets it write, holding its own copy of the compiled solution (the
// judge's compile cache is the user's and stays unreadable to it). Owned by the user
// the runner becomes (nobody, when the judge runs as root); removed afterwards.
#pragma once

#include <string>

namespace gemm {

class RunnerScratch {
  public:
    // Throws std::runtime_error naming what could not be made.
    explicit RunnerScratch(const std::string &library);
    ~RunnerScratch();
    RunnerScratch(const RunnerScratch &) = delete;
    RunnerScratch &operator=(const RunnerScratch &) = delete;
    const std::string &dir() const { return dir_; }
    const std::string &library() const { return library_; }

  private:
    std::string dir_, library_;
};

} // namespace gemm
