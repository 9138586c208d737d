// One testcase inside the worker: the checked call against the full FP64 reference,
// then (when the policy says so) the timed calls, each on fresh inputs drawn after the
// previous call returned and each verified, then the cuBLAS baseline under the same
// sampling rule. It measures and collects figures; the verdicts come from core/.
#pragma once

#include "channel/channel.hpp"
#include "channel/protocol.hpp"
#include "core/case_result.hpp"
#include "worker/call_timer.hpp"

#include <cublas_v2.h>

namespace gemm {

using SolveFunction = void (*)(const float *A, const float *B, float *C, int M, int N, int K);

// A failure caused by the solution's own call (a CUDA error, a reset device): RE, and
// the CUDA context may be unusable.
struct SolveFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class CaseRunner {
  public:
    CaseRunner(SolveFunction solve, WorkerChannel &channel, const DeviceInfo &device);
    ~CaseRunner();
    CaseResult run(const CaseRequest &request);

  private:
    struct Problem;
    class PhaseClock;
    CallSample invoke_solve(Problem &p, bool flush);
    void check_device_untouched(const Problem &p) const;
    void run_checked_call(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock);
    void run_timed_calls(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock);
    TimedRun time_cublas(Problem &p, const SamplingRule &rule);
    cublasHandle_t cublas();

    SolveFunction solve_;
    WorkerChannel &channel_;
    CallTimer timer_;
    cublasHandle_t cublas_ = nullptr;
};

} // namespace gemm
