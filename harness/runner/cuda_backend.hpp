// The runner's GPU: the CUDA context, the shared allocation imported from the referee's
// descriptor, and the four kinds of call (the solution, cuBLAS SGEMM, nothing, a calibration call).
#pragma once

#include "channel/entry_plan.hpp"
#include "cuda_driver/mapped_allocation.hpp"
#include "runner/runner_loop.hpp"

#include "runner/baseline_bias_relu.hpp"
#include "runner/entry_call.hpp"
#include <cublas_v2.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <optional>

namespace gemm {

class CudaBackend : public RunnerBackend {
  public:
    ~CudaBackend() override;
    // Creates the context (and, for the baseline, the cuBLAS handle) before the process
    // is confined: "" or why the GPU cannot be used.
    std::string start(bool baseline);
    // Loads the compiled solution and finds its entry point (the plan's symbol); "" or why
    // not, in the user's terms.
    std::string load(const std::string &library, const EntryPlan &plan);
    std::string map(int fd, std::size_t bytes) override;
    CallOutcome call(const CallOrder &order) override;

  private:
    std::string check_device_untouched(const float *C) const;
    bool record_own_event(cudaEvent_t &event);
    // The baseline's product of a problem whose C is one number; null when it cannot be had.
    float *product_scratch(std::size_t elements);
    cublasHandle_t half_handle();
    cublasHandle_t half_cublas_ = nullptr;
    std::optional<EntryCall> entry_;
    float *scratch_ = nullptr;
    std::size_t scratch_elements_ = 0;
    cublasHandle_t cublas_ = nullptr;
    BiasReluBaseline bias_relu_; // cuBLASLt's fused epilogue, for a problem whose steps are + bias, ReLU
    int multiprocessors_ = 1;
    MappedAllocation mapping_; // the referee's arena, as this process sees it
    static unsigned long long current_context_id();
    struct {
        cudaEvent_t before = nullptr, after = nullptr;
        unsigned long long context_id = 0; // the context they belong to (a reset makes a new one)
    } own_events_;
};

} // namespace gemm
