#include "command_line/modes/ranked_set.hpp"
#include "measurement/stats.hpp"
#include "testcases/categories.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace gemm {

std::vector<TestCase> ranked_cases(const JudgeOptions &options) {
    std::vector<TestCase> ranked;
    for (auto &tc : load_suite(options.selection.testcases_dir))
        if (category_traits(tc.category).ranked) ranked.push_back(std::move(tc));
    return ranked;
}

namespace {

// The one of larger size; either, when only one was measured.
std::optional<double> wider(const std::optional<double> &a, const std::optional<double> &b) {
    if (!a || !b) return a ? a : b;
    return std::fabs(*b) > std::fabs(*a) ? b : a;
}

} // namespace

void PooledTiming::add(const TimedRun &run) {
    samples_ms.insert(samples_ms.end(), run.samples_ms.begin(), run.samples_ms.end());
    raw_samples_ms.insert(raw_samples_ms.end(), run.raw_samples_ms.begin(), run.raw_samples_ms.end());
    rounds_ms.push_back(run.samples_ms);
    // Of the path's move into the solution's process, the widest of any round's: the
    // pooled calls paid every round's.
    const std::optional<double> excess =
        wider(empty_call.solution_process_excess_ms, run.empty_call.solution_process_excess_ms);
    if (rounds_ms.size() == 1 || run.empty_call.median_ms > empty_call.median_ms) empty_call = run.empty_call;
    empty_call.solution_process_excess_ms = excess;
    sm_clock_mhz = std::max(sm_clock_mhz, run.sm_clock_mhz);
    own_events_samples_ms.insert(own_events_samples_ms.end(), run.own_events_samples_ms.begin(),
                                 run.own_events_samples_ms.end());
}

TimedRun PooledTiming::timed_run() const {
    TimedRun run;
    run.samples_ms = samples_ms;
    run.raw_samples_ms = raw_samples_ms;
    run.empty_call = empty_call;
    run.stats = summarize(samples_ms);
    run.sm_clock_mhz = sm_clock_mhz;
    // The runner's own figure, summarized as the clock's samples are: the median of every
    // round's calls pooled. A median of the rounds' medians would not be the same figure
    // where the rounds differ: calls made at a power-capped clock come in clusters, and the
    // pooled median sits in one while a mean of the rounds' medians sits between them
    // (docs/perf-notes.md, the events' cross-check).
    // A round without them (a runner that did not always say) leaves no figure at all.
    if (!own_events_samples_ms.empty() && own_events_samples_ms.size() == samples_ms.size()) {
        run.own_events_ms = summarize(own_events_samples_ms).median_ms;
        run.own_events_samples_ms = own_events_samples_ms;
    }
    return run;
}

double PooledTiming::spread() const { return summarize(samples_ms).relative_spread(); }

RoundsRun run_rounds(const std::vector<TestCase> &cases, const StoppingRule &rule, const Progress &progress,
                     const std::string &mode,
                     const std::function<std::optional<double>(std::size_t index)> &time_case) {
    RoundsRun run;
    const auto start = std::chrono::steady_clock::now();
    const auto so_far = [&] {
        return Repetitions{run.rounds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                           run.worst_spread};
    };
    while (rule.wants_more(so_far())) {
        ++run.rounds;
        run.worst_spread = 0;
        for (std::size_t i = 0; i < cases.size(); ++i) {
            progress.show(mode + ": round " + std::to_string(run.rounds) + ", " + cases[i].name);
            const auto spread = time_case(i);
            progress.clear();
            if (!spread) {
                run.failed_case = i;
                return run;
            }
            run.worst_spread = std::max(run.worst_spread, *spread);
        }
    }
    run.budget_spent = rule.budget_spent(so_far());
    return run;
}

} // namespace gemm
