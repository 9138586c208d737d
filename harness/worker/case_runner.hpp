// One testcase inside the worker: inputs, reference, the checked call, the timed
// calls, the cuBLAS baseline. It measures and collects figures; the verdict on an
// output comes from check.hpp.
#pragma once

#include "channel/channel.hpp"
#include "channel/protocol.hpp"
#include "core/case_result.hpp"
#include "core/rng.hpp"
#include "core/testcase.hpp"
#include "worker/call_timer.hpp"

#include <cublas_v2.h>

namespace gemm {

using SolveFunction = void (*)(const float *A, const float *B, float *C, int M, int N, int K);

enum class BaselineMode { None, Perf, All };

struct TimingOptions {
    double budget_s = 0.3; // summed time of the timed calls per case
    int min_samples = 5;
    int max_samples = 100;
    BaselineMode baseline = BaselineMode::Perf;
};

// A failure caused by the solution's own call (a CUDA error, a reset device): RE, and
// the CUDA context may be unusable.
struct SolveFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class CaseRunner {
  public:
    CaseRunner(SolveFunction solve, WorkerChannel &channel, const DeviceInfo &device, TimingOptions options);
    ~CaseRunner();
    CaseResult run(const CaseRequest &request);

  private:
    struct Problem;
    Reference reference_for(const CaseInputs &inputs, int M, int N, int K);
    CallSample invoke_solve(Problem &p, bool flush);
    void check_device_untouched(const Problem &p) const;
    Judgement inspect(Problem &p, const CaseInputs &inputs, const Reference &ref, OutputCheck &figures) const;
    std::optional<Judgement> time_solution(Problem &p, const CaseInputs &inputs, const Reference &ref,
                                           SplitMix64 &choices, TimedRun &run);
    TimedRun time_cublas(Problem &p);
    bool wants_baseline(const TestCase &tc) const;
    cublasHandle_t cublas();

    SolveFunction solve_;
    WorkerChannel &channel_;
    TimingOptions options_;
    CallTimer timer_;
    cublasHandle_t cublas_ = nullptr;
    Precision precision_ = Precision::FP32;
};

} // namespace gemm
