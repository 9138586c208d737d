// Judges on one machine take turns on its GPU. Two judges at once would each time the
// other's work: without MPS the contexts share the GPU by time slices, so a call costs
// whole slices more while another judge's kernel runs, and the empty call measured after a
// solution's calls then reads as work the solution left running (RE), as an honest solution
// judged beside another did (docs/perf-notes.md). So a judge holds the turn from before its referee starts until it
// exits; another judge waits for it and says whom it waits for.
//
// The turn is one GPU's where the judge can tell, before its referee starts, which GPU it
// will use (judging/os/gpu_identity.hpp): it then holds that GPU's lock file, and the
// machine's lock shared, so that judges on two GPUs (the lanes of ./judge batch) run at
// once. Where it cannot tell, it holds the machine's lock alone, which keeps every other
// judge of the machine off every GPU: slower, never wrong. A judge that sees no GPU
// (CUDA_VISIBLE_DEVICES="") takes no turn. GEMM_JUDGE_GPU_TURNS=0 turns it off.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace gemm {

class GpuTurn {
  public:
    using Tell = std::function<void(const std::string &)>;
    // Waits until no other holder of the lock file at `path` is alive, telling `tell` once
    // (with the holder's PID where the kernel says it) when it has to wait, then holds the
    // turn until destroyed. Never throws: a lock file that cannot be opened leaves the turn
    // not held, with why_not() saying so, and nothing is waited for.
    static std::unique_ptr<GpuTurn> take(const std::string &path, const Tell &tell, double poll_s = 0.02);
    // The same without waiting: not held, why_not() saying so, when another judge holds it.
    static std::unique_ptr<GpuTurn> try_take(const std::string &path);
    // One GPU's turn: the machine's lock at `machine_path` shared, then `gpu_path` alone;
    // with `wait` false, not held (why_not() saying so) when another judge holds either.
    static std::unique_ptr<GpuTurn> take_on_gpu(const std::string &machine_path, const std::string &gpu_path,
                                                const Tell &tell, bool wait = true, double poll_s = 0.02);
    // The judge's own, held from when it is first had until the judge exits: compare's two
    // sides and sanitize's supervisors share it. With `wait` false, nullptr while another
    // judge holds it (the caller does other work first: the compile); with `wait` true it
    // waits, saying so on stderr. Never taken where the machine has no NVIDIA device node,
    // or with GEMM_JUDGE_GPU_TURNS=0 (then a turn not held, at once).
    static std::shared_ptr<const GpuTurn> for_this_judge(bool wait = true);
    ~GpuTurn();
    GpuTurn(const GpuTurn &) = delete;
    GpuTurn &operator=(const GpuTurn &) = delete;

    bool held() const { return fd_ >= 0; }
    // How long take() waited for another judge.
    double waited_s() const { return waited_s_ + (machine_share_ ? machine_share_->waited_s_ : 0.0); }
    const std::string &why_not() const { return why_not_; }

  private:
    GpuTurn() = default;
    // take() with `wait`; without it, one try. `operation`: LOCK_EX, or LOCK_SH for the
    // machine's lock held beside one GPU's.
    static std::unique_ptr<GpuTurn> lock(const std::string &path, const Tell &tell, double poll_s, bool wait,
                                         int operation);
    int fd_ = -1;
    std::unique_ptr<GpuTurn> machine_share_; // the machine's lock, shared, while this holds one GPU's
    bool held_by_another_ = false;           // a try found another judge holding it
    double waited_s_ = 0;
    std::string why_not_;
};

// Where judges of this machine take their turns: /tmp/gemm-judge-gpu.lock.
std::string gpu_turn_lock_path();

// The lock file of the GPU this judge will use, /tmp/gemm-judge-gpu-<its UUID>.lock;
// nullopt when which GPU cannot be told (then the machine's lock is taken alone).
std::optional<std::string> gpu_turn_lock_path_of_own_gpu();

// Whether a judge takes the turn here: an NVIDIA device node exists and the user did not
// set GEMM_JUDGE_GPU_TURNS=0; GEMM_JUDGE_GPU_TURNS=1 takes it without one (a GPU the judge
// reaches otherwise, and the CPU tests of the supervisor's wait). Never where
// CUDA_VISIBLE_DEVICES hides every GPU.
bool gpu_turns_wanted();

} // namespace gemm
