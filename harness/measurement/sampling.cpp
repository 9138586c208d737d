#include "measurement/sampling.hpp"

#include <algorithm>

namespace gemm {

bool Sampler::wants_more() const {
    if (warming_up()) return true;
    if (static_cast<int>(throttled_.size()) >= rule_.max_samples) return false;
    return stop_.wants_more({static_cast<int>(kept_.size()), spent_ms_ / 1e3});
}

void Sampler::record(const CallSample &sample) {
    if (warming_up()) {
        ++warmups_;
        return;
    }
    spent_ms_ += sample.ms;
    (sample.throttled ? throttled_ : kept_).push_back(sample);
}

TimedRun Sampler::result() const {
    TimedRun run;
    run.throttled_samples = static_cast<int>(throttled_.size());
    const bool enough_unthrottled = !kept_.empty();
    const std::vector<CallSample> &used = enough_unthrottled ? kept_ : throttled_;
    run.throttled_samples_used = !enough_unthrottled && !throttled_.empty();
    for (const auto &s : used) run.samples_ms.push_back(s.ms);
    run.raw_samples_ms = run.samples_ms;
    run.stats = summarize(run.samples_ms);
    run.median_phases = median_phases(used);
    run.own_events_ms = median_own_events(used);
    if (run.own_events_ms)
        for (const auto &s : used) run.own_events_samples_ms.push_back(*s.own_events_ms);
    return run;
}

CallClock median_phases(const std::vector<CallSample> &samples) {
    CallClock m;
    if (samples.empty()) return m;
    for (double CallClock::*phase :
         {&CallClock::total_ms, &CallClock::hand_out_ms, &CallClock::runner_turn_ms, &CallClock::snapshot_ms}) {
        std::vector<double> values;
        for (const auto &s : samples) values.push_back(s.phases.*phase);
        m.*phase = summarize(values).median_ms;
    }
    return m;
}

std::optional<double> median_own_events(const std::vector<CallSample> &samples) {
    std::vector<double> values;
    for (const auto &s : samples)
        if (s.own_events_ms) values.push_back(*s.own_events_ms);
    // Every sample or none: a runner that answers with its figure only sometimes has no median worth comparing.
    if (values.empty() || values.size() != samples.size()) return std::nullopt;
    return summarize(values).median_ms;
}

void subtract_empty_call(TimedRun &run, const EmptyCall &empty_call) {
    run.empty_call = empty_call;
    run.samples_ms.clear();
    for (double raw : run.raw_samples_ms)
        run.samples_ms.push_back(std::max(raw - empty_call.median_ms, shortest_call_ms));
    run.stats = summarize(run.samples_ms);
}

} // namespace gemm
