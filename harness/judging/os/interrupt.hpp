// Ctrl-C (SIGINT), SIGTERM and SIGHUP end the judge as they end any program, but first
// kill every process group it started (nvcc with its compilers, each worker with whatever
// the solution spawned) and remove the files it was half-way through writing. Children
// started while the judge runs register here for as long as they live.
#pragma once

#include <string>
#include <sys/types.h>

namespace gemm {

// Installs the handlers; the judge calls it once, first thing.
void install_interrupt_cleanup();

// In a forked child before exec: its own process group (so the kill reaches everything it
// starts) and death with its parent `parent`, even when the judge is killed by SIGKILL.
void become_group_that_dies_with_parent(pid_t parent);

// While alive, an interrupt kills the process group `group` (a child that called
// become_group_that_dies_with_parent).
class ChildGroupGuard {
  public:
    explicit ChildGroupGuard(pid_t group);
    ~ChildGroupGuard();
    ChildGroupGuard(const ChildGroupGuard &) = delete;
    ChildGroupGuard &operator=(const ChildGroupGuard &) = delete;

  private:
    int slot_;
};

// While alive, an interrupt removes the file at `path` (a `.part` file being written), or
// with `Kind::folder` the folder and everything in it (nvcc's private TMPDIR).
class PartialFileGuard {
  public:
    enum class Kind { file, folder };
    explicit PartialFileGuard(const std::string &path, Kind kind = Kind::file);
    ~PartialFileGuard();
    PartialFileGuard(const PartialFileGuard &) = delete;
    PartialFileGuard &operator=(const PartialFileGuard &) = delete;

  private:
    int slot_;
};

} // namespace gemm
