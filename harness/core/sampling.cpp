#include "core/sampling.hpp"

namespace gemm {

bool Sampler::wants_more() const {
    if (warming_up()) return true;
    const int kept = static_cast<int>(kept_.size());
    if (kept >= rule_.max_samples || static_cast<int>(throttled_.size()) >= rule_.max_samples) return false;
    return kept < rule_.min_samples || spent_ms_ < rule_.budget_s * 1e3;
}

void Sampler::record(const CallSample &sample) {
    if (warming_up()) {
        ++warmups_;
        return;
    }
    spent_ms_ += sample.time_ms();
    (sample.throttled ? throttled_ : kept_).push_back(sample);
}

TimedRun Sampler::result() const {
    TimedRun run;
    run.throttled_samples = static_cast<int>(throttled_.size());
    const bool enough_unthrottled = !kept_.empty();
    const std::vector<CallSample> &used = enough_unthrottled ? kept_ : throttled_;
    run.throttled_samples_used = !enough_unthrottled && !throttled_.empty();
    std::vector<double> event_ms, host_ms;
    for (const auto &s : used) {
        run.calls_with_unsynchronized_work += s.unsynchronized_work();
        event_ms.push_back(s.event_ms);
        host_ms.push_back(s.host_ms);
    }
    run.host_clock_used = 2 * run.calls_with_unsynchronized_work > static_cast<int>(used.size());
    run.samples_ms = run.host_clock_used ? host_ms : event_ms;
    run.stats = summarize(run.samples_ms);
    return run;
}

} // namespace gemm
