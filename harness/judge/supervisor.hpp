// Runs solutions in worker processes, never in the judge's own. Enforces the time
// limit of each solve() call, turns a dead or silent worker into RE/TLE for the case
// it was on, and starts a fresh worker for the rest.
#pragma once

#include "channel/protocol.hpp"
#include "core/case_result.hpp"
#include "core/testcase.hpp"
#include "judge/interrupt.hpp"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gemm {

struct SupervisorOptions {
    std::vector<std::string> worker_argv; // the channel's fd numbers are appended
    double judge_phase_limit_s = 300;     // the judge's own work (reference, checks) per phase
    double startup_limit_s = 120;         // CUDA initialisation and loading the solution
    std::size_t output_tail_bytes = 16384;
    double time_limit_scale = 1.0; // under compute-sanitizer a call runs tens of times slower
};

struct WorkerStart {
    bool ok = false;
    std::string failure;     // why no hello came, in words
    DeviceInfo device;       // from the hello
    std::string solve_error; // non-empty: the library has no usable solve()
};

class Supervisor {
  public:
    explicit Supervisor(SupervisorOptions options);
    ~Supervisor();
    Supervisor(const Supervisor &) = delete;
    Supervisor &operator=(const Supervisor &) = delete;

    // Starts a worker (if none is running) and waits for its hello.
    WorkerStart start();
    CaseResult run_case(const TestCase &tc, const CasePolicy &policy = {});

  private:
    enum class Phase { Judge, Solve };
    bool spawn();
    void stop_worker();
    int reap_worker(double wait_s);
    void drain_output();
    bool read_messages(std::vector<std::string> &lines);
    std::string death_description(Phase phase, int call_index);
    bool send_line(const std::string &line);
    std::uint64_t fresh_random();

    SupervisorOptions options_;
    pid_t pid_ = -1;
    std::optional<ChildGroupGuard> stop_on_interrupt_; // while a worker runs
    int command_fd_ = -1, result_fd_ = -1, output_fd_ = -1;
    std::string result_buffer_, output_tail_;
    WorkerStart last_start_;
    std::uint64_t random_state_;
};

} // namespace gemm
