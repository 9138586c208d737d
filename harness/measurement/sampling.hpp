// How many calls a timing takes: one rule for the solution and for cuBLAS (as
// google/benchmark has one stopping rule for every run), with samples taken while the
// GPU reported a thermal or hardware slowdown discarded (as nvbench does). Pure logic,
// tested on synthetic samples; the referee feeds it real calls (referee/case_referee.cpp).
#pragma once

#include "measurement/stopping_rule.hpp"
#include "measurement/timed_run.hpp"

#include <optional>
#include <vector>

namespace gemm {

// One timed call, as the referee's clock saw it (referee/trusted_clock.hpp): from
// before its inputs existed to after the snapshot of its output.
struct CallSample {
    double ms = 0;
    bool throttled = false;              // the GPU reported a thermal or hardware slowdown right after it
    CallClock phases;                    // ms split by phase (phases.total_ms == ms when set)
    std::optional<double> own_events_ms; // what the runner's own events said: reported, never used
};

// No call takes less than this, however small: a kernel launch alone costs more.
constexpr double shortest_call_ms = 0.001;

// Takes the empty call's cost off every sample of `run` (never below shortest_call_ms)
// and summarizes them again; the raw samples are kept beside.
void subtract_empty_call(TimedRun &run, const EmptyCall &empty_call);

// How a case's calls are taken, as the judge sends it to the referee: warm-ups, then the
// kept calls under a CallBudgetRule (stopping_rule.hpp) of these parameters.
struct SamplingRule {
    int warmup_calls = 1;  // caches, clocks, lazily loaded modules; verified, not kept
    int min_samples = 5;   // kept samples, at least
    int max_samples = 100; // kept samples, at most
    double budget_s = 0.3; // summed time of the timed calls, throttled ones included
    CallBudgetRule stopping_rule() const { return {min_samples, max_samples, budget_s}; }
};

// Each phase's median, and the median of the runner's own figures (none unless every
// sample has one).
CallClock median_phases(const std::vector<CallSample> &samples);
std::optional<double> median_own_events(const std::vector<CallSample> &samples);

class Sampler {
  public:
    explicit Sampler(SamplingRule rule) : rule_(rule), stop_(rule.stopping_rule()) {}

    bool warming_up() const { return warmups_ < rule_.warmup_calls; }
    // Another call is wanted: warm-ups first, then as the rule's CallBudgetRule says of the
    // kept calls; throttled calls may add as many again as max_samples, so a throttling
    // GPU cannot keep the loop going for ever.
    bool wants_more() const;
    void record(const CallSample &sample);

    // The kept samples summarized, raw. When every sample was throttled they are
    // summarized all the same, and the run says so.
    TimedRun result() const;

  private:
    SamplingRule rule_;
    CallBudgetRule stop_; // when the kept calls are enough
    int warmups_ = 0;
    double spent_ms_ = 0;
    std::vector<CallSample> kept_, throttled_;
};

} // namespace gemm
