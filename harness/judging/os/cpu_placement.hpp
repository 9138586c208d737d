// Which CPUs the judge's timed processes run on. A call's time holds host work of the
// process that makes it (launching, seeing the doorbell, the sync's return), and what that
// work costs moved with the CPU the scheduler gave each process: the two runners' paths
// drifted apart, and a run's stepped and stayed (docs/perf-notes.md). The cost taken off a solution's
// calls is measured in the baseline runner, so both runners are pinned to one CPU: their
// host work is paid on the same core. They never run at once (each is stopped between its
// calls). The referee spins while a runner spins, so it gets a CPU of its own, not a
// hyperthread sibling of the runners' where another is free.
//
// Judges running at the same time claim their CPUs through lock files (flock, released
// when the judge ends), so two of them never share a pinned CPU; where two free CPUs
// cannot be found, nothing is pinned and the run says why.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

struct CpuPair {
    int referee = -1;
    int runners = -1;
};

// "0-3,8,10-11" (the kernel's cpulist format) as numbers; nullopt when it is not one.
std::optional<std::vector<int>> parse_cpu_list(const std::string &text);

// The pure rule. From the CPUs the judge may use (at least three, so that one is left to
// the supervisor and the system), highest first: the runners take the first one `claim`
// grants, the referee the next one granted that is not among `siblings(runners)`, else
// any next one granted. nullopt when fewer than two are granted; a CPU claimed but not
// used is passed to `release`.
std::optional<CpuPair> choose_cpu_pair(std::vector<int> allowed, const std::function<bool(int)> &claim,
                                       const std::function<void(int)> &release,
                                       const std::function<std::vector<int>(int)> &siblings);

// The CPUs a judge holds for its lifetime.
class CpuClaim {
  public:
    // Claims a pair among the CPUs this process may run on, through lock files in
    // `lock_dir`. Never throws: a failure leaves the claim empty, with why() saying so.
    static std::unique_ptr<CpuClaim> claim(const std::string &lock_dir = "/tmp");
    // The judge's own, claimed at its first use and held until the judge exits: every
    // supervisor of one judge shares it. compare's two sides then run their referees on one
    // CPU and their runners on another (they take turns, never run at once), so neither
    // side gets a core of its own that would show as a difference between them (with a
    // pair each, cuBLAS against itself read "slower": docs/perf-notes.md).
    static std::shared_ptr<const CpuClaim> for_this_judge();
    // The same among the CPUs given (which need not exist: only their lock files are used).
    static std::unique_ptr<CpuClaim> claim_among(const std::vector<int> &allowed, const std::string &lock_dir);
    // Nothing pinned, for a reason (the user's setting, a tool wrapping the runner).
    static std::shared_ptr<const CpuClaim> none(std::string why);
    ~CpuClaim();
    CpuClaim(const CpuClaim &) = delete;
    CpuClaim &operator=(const CpuClaim &) = delete;

    const std::optional<CpuPair> &pair() const { return pair_; }
    // "referee on CPU 14, runners on CPU 15", or "not pinned: <why>".
    std::string describe() const;

  private:
    CpuClaim() = default;
    std::optional<CpuPair> pair_;
    std::string why_not_;
    std::vector<int> lock_fds_;
};

// The setting that turns pinning off: GEMM_JUDGE_PIN_CPUS=0 (for a machine whose CPUs are
// shared with other work the judge cannot see, where a pinned process could not move away).
bool cpu_pinning_wanted();

// In a child before exec: pins the calling process (and what it starts) to `cpu`.
// False, errno set, when the kernel refused.
bool pin_to_cpu(int cpu);

} // namespace gemm
