// The one sampling rule, on synthetic samples: warm-ups, the minimum, the budget, the
// maximum, throttled samples discarded, and the empty call's cost taken off.
#include <doctest/doctest.h>

#include "measurement/sampling.hpp"
#include "verification/plausibility.hpp"

using namespace gemm;

namespace {

CallSample sample(double ms, bool throttled = false) {
    CallSample s;
    s.ms = ms;
    s.throttled = throttled;
    return s;
}

int calls_until_done(Sampler &sampler, double ms, bool throttled = false) {
    int calls = 0;
    while (sampler.wants_more() && calls < 10000) {
        sampler.record(sample(ms, throttled));
        ++calls;
    }
    return calls;
}

} // namespace

TEST_CASE("warm-up calls come first and are not kept") {
    Sampler sampler(SamplingRule{2, 3, 100, 0});
    CHECK(sampler.warming_up());
    sampler.record(sample(100));
    sampler.record(sample(100));
    CHECK_FALSE(sampler.warming_up());
    CHECK(calls_until_done(sampler, 1) == 3);
    CHECK(sampler.result().stats.samples == 3);
    CHECK(sampler.result().stats.median_ms == 1);
}

TEST_CASE("slow calls stop at the minimum, fast ones at the budget or the maximum") {
    Sampler slow(SamplingRule{1, 5, 100, 0.3});
    CHECK(calls_until_done(slow, 200) == 1 + 5);
    Sampler medium(SamplingRule{1, 5, 100, 0.3});
    CHECK(calls_until_done(medium, 10) == 1 + 30);
    Sampler fast(SamplingRule{1, 5, 100, 0.3});
    CHECK(calls_until_done(fast, 0.01) == 1 + 100);
}

TEST_CASE("throttled samples are discarded, and a throttling GPU cannot keep the loop going") {
    Sampler sampler(SamplingRule{0, 3, 10, 0});
    sampler.record(sample(50, true));
    sampler.record(sample(1));
    sampler.record(sample(1));
    sampler.record(sample(1));
    CHECK_FALSE(sampler.wants_more());
    const TimedRun run = sampler.result();
    CHECK(run.stats.samples == 3);
    CHECK(run.stats.max_ms == 1);
    CHECK(run.throttled_samples == 1);
    CHECK_FALSE(run.throttled_samples_used);

    Sampler always(SamplingRule{0, 3, 10, 0});
    CHECK(calls_until_done(always, 1, true) == 10);
    CHECK(always.result().throttled_samples_used);
    CHECK(always.result().stats.samples == 10);
}

TEST_CASE("the empty call's cost is taken off every sample, never below the shortest call") {
    Sampler sampler(SamplingRule{0, 3, 3, 1.0});
    for (double ms : {0.50, 0.70, 0.30}) sampler.record(sample(ms));
    TimedRun run = sampler.result();
    CHECK(run.stats.median_ms == doctest::Approx(0.50));
    subtract_empty_call(run, EmptyCall{0.40, 0.01, 15, true});
    CHECK(run.raw_samples_ms == std::vector<double>{0.50, 0.70, 0.30});
    CHECK(run.samples_ms[0] == doctest::Approx(0.10));
    CHECK(run.samples_ms[1] == doctest::Approx(0.30));
    CHECK(run.samples_ms[2] == doctest::Approx(shortest_call_ms)); // 0.30 − 0.40 is no time
    CHECK(run.stats.median_ms == doctest::Approx(0.10));
    CHECK(run.empty_call.samples == 15);
    CHECK(run.empty_call.measured_before_solution);
}

TEST_CASE("a time faster than the dense tensor-core peak is impossible") {
    DeviceInfo h200;
    h200.sm_count = 132;
    h200.sm_clock_max_mhz = 1980;
    CHECK(dense_tensor_peak_flops(h200) == doctest::Approx(132 * 4096.0 * 1980e6));
    CaseResult r;
    r.M = r.N = r.K = 4096;
    r.timing = TimedRun{};
    r.timing->stats.median_ms = 2.7; // cuBLAS SGEMM's time
    CHECK_FALSE(impossible_timing(r, h200).has_value());
    r.timing->stats.median_ms = 0.07; // 39× cuBLAS: the old scaled-replay cheat
    const auto why = impossible_timing(r, h200);
    REQUIRE(why.has_value());
    CHECK(why->find("dense tensor-core peak") != std::string::npos);
}

TEST_CASE("the calls' stopping rule names its parameters and stops at the most calls, else at the budget") {
    const CallBudgetRule rule = SamplingRule{1, 5, 100, 0.3}.stopping_rule();
    CHECK(rule.parameters() == std::vector<RuleParameter>{{"min_calls", 5}, {"max_calls", 100}, {"budget_s", 0.3}});
    CHECK(rule.wants_more({4, 1.0}));       // fewer than the least, whatever was spent
    CHECK(rule.wants_more({5, 0.1}));       // the budget is not spent
    CHECK_FALSE(rule.wants_more({5, 0.3})); // it is
    CHECK_FALSE(rule.wants_more({100, 0})); // the most calls
    CHECK(rule.budget_spent({5, 0.3}));
}
