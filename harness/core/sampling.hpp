// How many calls a timing takes: one rule for the solution and for cuBLAS (as
// google/benchmark has one stopping rule for every run), with samples taken while the
// GPU reported a thermal or hardware slowdown discarded (as nvbench does). Pure logic,
// tested on synthetic samples; the worker feeds it real calls (worker/case_runner.cpp).
#pragma once

#include "core/case_result.hpp"

#include <vector>

namespace gemm {

// One timed call: device events around it, and the host clock up to the device being
// idle as a cross-check that also sees work solve() left running on another stream.
struct CallSample {
    double event_ms = 0;
    double host_ms = 0;
    bool throttled = false; // the GPU reported a thermal or hardware slowdown right after it
    // The host clock exceeds the events by more than launch and synchronisation
    // overhead: some device work ran outside the events' view.
    bool unsynchronized_work() const { return host_ms > 1.05 * event_ms + 0.05; }
    double time_ms() const { return unsynchronized_work() ? host_ms : event_ms; }
};

struct SamplingRule {
    int warmup_calls = 1;  // caches, clocks, lazily loaded modules; verified, not kept
    int min_samples = 5;   // kept samples, at least
    int max_samples = 100; // kept samples, at most
    double budget_s = 0.3; // summed time of the timed calls, throttled ones included
};

class Sampler {
  public:
    explicit Sampler(SamplingRule rule) : rule_(rule) {}

    bool warming_up() const { return warmups_ < rule_.warmup_calls; }
    // Another call is wanted: warm-ups first, then until the budget is spent with at
    // least min_samples kept, or max_samples kept; throttled calls may add as many
    // again, so a throttling GPU cannot keep the loop going for ever.
    bool wants_more() const;
    void record(const CallSample &sample);

    // The kept samples summarized. Work left running shows in most calls: then the host
    // clock replaces the events (one late host-clock reading is the machine's noise, not
    // the solution's). When every sample was throttled they are summarized all the same,
    // and the run says so.
    TimedRun result() const;

  private:
    SamplingRule rule_;
    int warmups_ = 0;
    double spent_ms_ = 0;
    std::vector<CallSample> kept_, throttled_;
};

} // namespace gemm
