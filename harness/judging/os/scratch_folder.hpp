// A private temporary folder for one child program (nvcc's TMPDIR, so its ~100 MB of
// tmpxft_* files are its own): mode 0700 below the system's temporary folder, removed with
// everything in it when done, and by the interrupt handler when the judge is stopped
// half-way (interrupt.hpp).
#pragma once

#include "judging/os/interrupt.hpp"

#include <memory>
#include <string>

namespace gemm {

class ScratchFolder {
  public:
    // SetupError when the folder cannot be made.
    explicit ScratchFolder(const std::string &label);
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder &) = delete;
    ScratchFolder &operator=(const ScratchFolder &) = delete;

    const std::string &path() const { return path_; }

  private:
    std::string path_;
    std::unique_ptr<PartialFileGuard> remove_on_interrupt_;
};

} // namespace gemm
