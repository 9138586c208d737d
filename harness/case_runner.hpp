// One testcase inside the worker: inputs, reference, the checked call, the timed
// calls, the cuBLAS baseline. It measures and collects figures; the verdict on an
// output comes from check.hpp.
#pragma once

#include "call_timer.hpp"
#include "case_result.hpp"
#include "channel.hpp"
#include "testcase.hpp"

#include <cublas_v2.h>
#include <memory>

namespace gemm {

using SolveFunction = void (*)(const float *A, const float *B, float *C, int M, int N, int K);

enum class BaselineMode { None, Perf, All };

struct TimingOptions {
    double budget_s = 0.3; // summed time of the timed calls per case
    int min_samples = 5;
    int max_samples = 100;
    BaselineMode baseline = BaselineMode::Perf;
};

// A CUDA error raised by the solution's own call: RE, and the context may be dead.
struct SolveFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class CaseRunner {
  public:
    CaseRunner(SolveFunction solve, WorkerChannel &channel, const DeviceInfo &device, TimingOptions options);
    ~CaseRunner();
    CaseResult run(const TestCase &tc);

  private:
    struct Problem;
    struct Inputs {
        std::vector<float> A, B;
    };
    Inputs make_inputs(const TestCase &tc, int input_set) const;
    Reference reference_for(const Inputs &inputs, int M, int N, int K);
    CallSample invoke_solve(Problem &p, bool flush);
    Judgement inspect(Problem &p, const Inputs &inputs, const Reference &ref, OutputCheck &figures) const;
    TimedRun time_solution(Problem &p);
    TimedRun time_cublas(Problem &p, const TestCase &tc);
    bool wants_baseline(const TestCase &tc) const;
    cublasHandle_t cublas();

    SolveFunction solve_;
    WorkerChannel &channel_;
    TimingOptions options_;
    CallTimer timer_;
    cublasHandle_t cublas_ = nullptr;
};

} // namespace gemm
