// Runs solutions in processes of their own, never in the judge's. Per session three
// children: the referee (trusted, GPU: inputs, reference, checks, the clock), the
// baseline runner (cuBLAS and empty calls, never loads a solution) and the solution's
// runner (confined; its blocked attempts reach the judge through the seccomp listener
// it hands over before loading the solution). The supervisor enforces the time limit
// of each solve() call, turns a dead runner into RE or TLE for the case it was on,
// names what the runner tried, and starts a fresh runner for the rest: only the runner,
// on one of the spare sockets the referee was started with (the referee, its calibration
// and the baseline runner go on), and all three afresh when none is left or the judge's
// own side failed.
#pragma once

#include "channel/judge_channel.hpp"
#include "channel/protocol.hpp"
#include "judging/os/child_process.hpp"
#include "judging/os/cpu_placement.hpp"
#include "judging/os/gpu_turn.hpp"
#include "judging/os/runner_scratch.hpp"
#include "testcases/testcase.hpp"
#include "verification/case_result.hpp"
#include "verification/case_verdict.hpp"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

namespace sandbox {
class AttemptMonitor;
}

struct SupervisorOptions {
    std::string referee;                    // the gemm-referee program
    std::string runner;                     // the gemm-runner program
    std::string library;                    // the compiled solution
    std::string entry;                      // how the runner calls it (channel/entry_plan.hpp)
    std::vector<std::string> runner_prefix; // a tool the solution's runner runs under (compute-sanitizer, ncu)
    std::string relaxed_for;                // that tool's name: it needs a looser confinement
    // M, N, K and the batch: the empty call is measured for these before the solution loads
    std::vector<std::array<long long, 4>> timed_shapes;
    double judge_phase_limit_s = 300; // the judge's own work (reference, checks) per phase
    double startup_limit_s = 120;     // the referee's CUDA start and calibration; a tool's (runner_prefix) start
    // The solution's process, from its start to solve() found (CUDA's start, the library's
    // constructors); past it the solution is at fault (a constructor that never returns).
    double load_limit_s = 30;
    int spare_runners = 16; // sockets for runners that replace a failed one without a new referee
    std::size_t output_tail_bytes = 16384;
    double time_limit_scale = 1.0; // under compute-sanitizer a call runs tens of times slower
    // The judge's turn on the GPU is taken before the referee starts (judging/os/gpu_turn.hpp):
    // the real judge's sessions; fake workers on a CPU need none.
    bool takes_gpu_turn = false;
    // What the solution may write to its folder (judging/os/runner_scratch.hpp); past it RE.
    std::uint64_t scratch_limit_bytes = default_scratch_limit_bytes;
    bool scratch_may_mount = true; // false: the watched folder even as root (its tests)
};

struct WorkerStart {
    bool ok = false;
    std::string failure;     // why the processes did not start, in words
    DeviceInfo device;       // from the referee
    std::string solve_error; // non-empty: the library has no usable solve()
    // How a start that is not ok ended, as a fact the verdict is decided from
    // (decide_case): NotStarted when the solution's process died, hung or broke the
    // protocol while loading the solution, before any call; otherwise the judge's side failed.
    SupervisorSaw ending = SupervisorSaw::JudgeSideFailed;
    std::vector<std::string> unconfined; // what the solution's process is not confined by
    std::string cpus;                    // where the referee and the runners run (CpuClaim::describe)
    // Where start() spent its time: waiting for the referee's hello (its CUDA start and
    // empty calls, begun by begin()), then the solution's process until it loaded the library.
    double waited_for_referee_s = 0, runner_start_s = 0;
    double waited_for_gpu_s = 0; // for another judge's turn on the GPU, before the referee started
};

class Supervisor {
  public:
    explicit Supervisor(SupervisorOptions options);
    ~Supervisor();
    Supervisor(const Supervisor &) = delete;
    Supervisor &operator=(const Supervisor &) = delete;

    // Starts the referee and the baseline runner and sends them the shapes to calibrate,
    // without waiting: their CUDA start and the empty calls then overlap whatever the judge
    // does next (the compile). The solution's runner is started by start(), only after the
    // referee said the empty calls are measured. With takes_gpu_turn, while another judge
    // has the GPU (judging/os/gpu_turn.hpp) nothing starts: start() waits for the turn first.
    void begin();
    // The compiled solution, once there is one (between begin() and start()).
    void set_library(std::string library) { options_.library = std::move(library); }
    // Starts the processes (if none are running; after begin(), the rest of them) and waits
    // until the solution is loaded.
    WorkerStart start();
    CaseResult run_case(const TestCase &tc, const CasePolicy &policy = {});
    // The run is over and the judge exits next: every process killed, none waited for.
    void stop_without_waiting();
    // Every case run so far (a suite's cases, rank's and compare's rounds, shrinking's
    // tries), and their wall time from request to verdict.
    struct CaseRuns {
        int runs = 0;
        double seconds = 0;
    };
    const CaseRuns &case_runs() const { return case_runs_; }
    // The processes started so far: a failed solution's runner is replaced alone while the
    // referee has a spare socket for it; referees count the starts of all three afresh.
    struct Starts {
        int referees = 0, runners = 0;
    };
    const Starts &starts() const { return starts_; }

  private:
    enum class Phase { Judge, Solve, Calibration };
    struct Output {
        int fd = -1;
        std::string tail;
    };
    WorkerStart finish_start();
    // The solution's runner on `runner_end`, announced to the referee with `nonce`, until it
    // has loaded the solution (or why not, and whose fault that is).
    WorkerStart start_runner(int runner_end, std::uint64_t nonce);
    // After a runner failed and the referee kept going: a new runner on the next spare socket.
    WorkerStart replace_runner();
    // The failed runner's group killed and reaped, what it printed and tried kept.
    void retire_runner();
    // The runner's folder removed, whether it was past its limit kept for the case's facts.
    void release_scratch();
    // Whether the solution's process wrote past its folder's limit during this case: once.
    std::optional<std::string> take_overfilled();
    // A call that overran: the runner killed, and the referee's result for the case awaited
    // (its runner is replaced when it says so); all three stopped when it does not answer.
    void end_overrun_call();
    void spawn_judge_side(); // the referee and the baseline runner, and their calibration order
    CaseResult run_case_once(const TestCase &tc, const CasePolicy &policy);
    bool spawn_referee_and_baseline(int &runner_end);
    bool spawn_runner(int runner_end);
    void stop_all(bool wait = true);
    void drain(Output &output);
    void drain_outputs();
    std::optional<nlohmann::json> wait_for_message(double limit_s, std::string &failure);
    void answer_monitor();
    void keep_attempts();
    std::string describe_runner_end(int call_index);
    bool receive_listener();
    std::string attempts_text();
    std::uint64_t fresh_random();
    // Waits up to `ms` for any of the children to say something, answering the
    // monitor meanwhile; false when the wait timed out.
    bool wait_for_activity(int ms);

    SupervisorOptions options_;
    // Where every process it starts runs: the judge's claim, shared by its supervisors.
    std::shared_ptr<const CpuClaim> cpus_;
    std::shared_ptr<const GpuTurn> gpu_turn_; // held from the first begin() on, when options_.takes_gpu_turn
    ChildProcess referee_, baseline_, runner_;
    std::unique_ptr<RunnerScratch> scratch_;
    std::optional<std::string> overfilled_; // a released folder was past its limit: why
    std::unique_ptr<sandbox::AttemptMonitor> monitor_;
    JudgeChannel channel_;
    int monitor_socket_ = -1;
    Output solution_output_, judge_side_output_;
    std::vector<std::string> attempts_;
    WorkerStart last_start_;
    // Between begin() and start(): the runner's end of its socket, and the greeting's nonce.
    bool begun_ = false;
    std::vector<int> spare_runner_ends_; // the judge's ends of the referee's spare runner sockets, in order
    bool runner_needed_ = false;         // the referee replaced a failed runner and waits for the next
    bool waiting_for_gpu_ = false;       // begun, but the referee waits for this judge's turn on the GPU
    int pending_runner_end_ = -1;
    std::uint64_t pending_nonce_ = 0;
    std::uint64_t random_state_;
    CaseRuns case_runs_;
    Starts starts_;
};

} // namespace gemm
