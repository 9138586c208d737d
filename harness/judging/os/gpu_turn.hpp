// Judges on one machine take turns on its GPU. Two judges at once would each time the
// other's work: without MPS the contexts share the GPU by time slices, so a call costs
// whole slices more while another judge's kernel runs, and the empty call measured after a
// solution's calls then reads as work the solution left running (RE) — an honest solution
// judged beside another got "an empty call took 2.750 ms after its calls, 0.301 ms before"
// on the H200. So a judge holds the turn from before its referee starts until it exits;
// another judge waits for it and says whom it waits for.
//
// The turn is the machine's, not one GPU's: which GPU a judge will use is known only once
// its referee has started (CUDA_VISIBLE_DEVICES may name one GPU by index, UUID or not at
// all), and two judges on different GPUs waiting for each other is slower, never wrong.
// GEMM_JUDGE_GPU_TURNS=0 turns it off (judges on different GPUs of one machine).
#pragma once

#include <functional>
#include <memory>
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
    double waited_s() const { return waited_s_; }
    const std::string &why_not() const { return why_not_; }

  private:
    GpuTurn() = default;
    // take() with `wait`; without it, one try.
    static std::unique_ptr<GpuTurn> lock(const std::string &path, const Tell &tell, double poll_s, bool wait);
    int fd_ = -1;
    bool held_by_another_ = false; // a try found another judge holding it
    double waited_s_ = 0;
    std::string why_not_;
};

// Where judges of this machine take their turns: /tmp/gemm-judge-gpu.lock.
std::string gpu_turn_lock_path();

// Whether a judge takes the turn here: an NVIDIA device node exists and the user did not
// set GEMM_JUDGE_GPU_TURNS=0; GEMM_JUDGE_GPU_TURNS=1 takes it without one (a GPU the judge
// reaches otherwise, and the CPU tests of the supervisor's wait).
bool gpu_turns_wanted();

} // namespace gemm
