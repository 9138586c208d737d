// The runner's folder: its working directory, HOME and TMPDIR, the only place its
// confinement lets it write, holding its own copy of the compiled solution (the
// judge's compile cache is the user's and stays unreadable to it). Owned by the user
// the runner becomes (nobody, when the judge runs as root); removed afterwards.
//
// The disk is the solution's only within a limit: where the judge may mount (root), the
// folder is a tmpfs of the limit's size (plus the library and a margin), so a write past
// it fails with ENOSPC and the disk the judge's reports and history live on is never
// filled. Elsewhere the folder is an ordinary one: RLIMIT_FSIZE caps each file (the
// runner's confinement), and the supervisor watches the folder's allocated blocks and
// stops the runner past the limit. Either way a folder past its limit is the solution's
// doing (RE), said by overfilled().
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace gemm {

class PartialFileGuard;

// What the solution may write to its folder by default (--scratch-limit).
constexpr std::uint64_t default_scratch_limit_bytes = std::uint64_t(1) << 30;

// "1 GiB", "8 MiB", "1.5 GiB", "100 bytes": a limit in words.
std::string describe_bytes(std::uint64_t bytes);

// Unmounts (and removes) every runner folder's tmpfs whose judge is gone: a judge killed by
// SIGKILL leaves its folder mounted. A folder is known by its tmpfs's source, which names
// the judge by PID and start time. Returns how many it unmounted. Called by the first
// RunnerScratch of a process that mounts.
int unmount_abandoned_runner_folders();

class RunnerScratch {
  public:
    // Throws std::runtime_error naming what could not be made. `may_mount`: try the
    // size-capped tmpfs (as root); false, or when the mount is refused, the watched folder.
    RunnerScratch(const std::string &library, std::uint64_t limit_bytes, bool may_mount = true);
    ~RunnerScratch();
    RunnerScratch(const RunnerScratch &) = delete;
    RunnerScratch &operator=(const RunnerScratch &) = delete;
    const std::string &dir() const { return dir_; }
    const std::string &library() const { return library_; }
    bool size_capped() const { return mounted_; }
    // Why the folder is not a size-capped tmpfs, for the confinement notes; "" when it is.
    const std::string &uncapped_because() const { return uncapped_because_; }
    // What the solution wrote to the folder past the limit, as the case's RE detail
    // ("wrote more than 1 GiB to its folder …"); nullopt within it.
    std::optional<std::string> overfilled() const;
    // overfilled(), at most every `interval` (a walk of an uncapped folder costs a little):
    // for the supervisor's wait loop.
    std::optional<std::string> overfilled_every(std::chrono::milliseconds interval);

  private:
    // Bytes the solution's files take in the folder, the library's copy not counted.
    std::uint64_t solution_bytes() const;

    std::string dir_, library_;
    std::uint64_t limit_bytes_;
    std::uint64_t library_bytes_ = 0;
    bool mounted_ = false;
    std::string uncapped_because_;
    std::chrono::steady_clock::time_point last_look_{};
    std::unique_ptr<PartialFileGuard> remove_on_interrupt_;
};

} // namespace gemm
