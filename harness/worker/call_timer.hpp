// Timing one call: the L2 flushed first, CUDA events on the legacy default stream
// around the call, and the host clock up to the device being idle as a cross-check.
// The events see everything solve() queues on the default stream and on blocking
// streams; the host clock also sees work left on a non-blocking stream.
#pragma once

#include "core/sampling.hpp"
#include "worker/cuda_check.hpp"

#include <chrono>

namespace gemm {

class CallTimer {
  public:
    explicit CallTimer(std::size_t l2_bytes);
    ~CallTimer();
    CallTimer(const CallTimer &) = delete;
    CallTimer &operator=(const CallTimer &) = delete;

    // Writes a buffer twice the L2's size, so no input of the last call is still cached.
    void flush_l2();

    template <typename Call> CallSample time(Call &&call) {
        return time(call, [] {});
    }

    // `after_call` runs right after the call, before the timer touches CUDA again: a
    // call that reset the device must be caught before the timer's events are used.
    template <typename Call, typename AfterCall> CallSample time(Call &&call, AfterCall &&after_call) {
        using Clock = std::chrono::steady_clock;
        cuda_check(cudaDeviceSynchronize(), "before the timed call");
        cuda_check(cudaEventRecord(start_, 0), "cudaEventRecord");
        const auto host_start = Clock::now();
        call();
        after_call();
        cudaEventRecord(stop_, 0);
        const cudaError_t done = cudaDeviceSynchronize();
        const auto host_end = Clock::now();
        cuda_check(done, "solve()");
        cuda_check(cudaGetLastError(), "solve()"); // launch errors that do not stick
        CallSample sample;
        float ms = 0;
        cuda_check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
        sample.event_ms = ms;
        sample.host_ms = std::chrono::duration<double, std::milli>(host_end - host_start).count();
        return sample;
    }

  private:
    DeviceArray<unsigned char> flush_buffer_;
    cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

} // namespace gemm
