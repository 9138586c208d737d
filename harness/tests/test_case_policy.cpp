// The judge decides each case's policy once, from its category and the command line.
#include <doctest/doctest.h>

#include "judge/run/case_policy.hpp"

using namespace gemm;

namespace {

TestCase in_category(const std::string &category) {
    TestCase tc;
    tc.name = category + "/x";
    tc.category = category;
    tc.M = tc.N = tc.K = 8;
    return tc;
}

} // namespace

TEST_CASE("perf cases get the cuBLAS baseline by default, others do not") {
    JudgeOptions o;
    CHECK(policy_for(in_category("perf"), o).baseline);
    CHECK_FALSE(policy_for(in_category("secret"), o).baseline);
    o.baseline = "all";
    CHECK(policy_for(in_category("secret"), o).baseline);
    o.baseline = "none";
    CHECK_FALSE(policy_for(in_category("perf"), o).baseline);
}

TEST_CASE("every case is timed, huge cases are not shrunk, sample cases are revealed") {
    JudgeOptions o;
    o.time_budget_s = 0.05;
    const CasePolicy huge = policy_for(in_category("huge"), o);
    CHECK(huge.timed);
    CHECK_FALSE(huge.shrink);
    CHECK(huge.sampling.budget_s == 0.05);
    CHECK(policy_for(in_category("sample"), o).reveal);
    CHECK_FALSE(policy_for(in_category("secret"), o).reveal);
    o.reveal = true;
    CHECK(policy_for(in_category("secret"), o).reveal);
    const CasePolicy checked_only = untimed(policy_for(in_category("perf"), o));
    CHECK_FALSE(checked_only.timed);
    CHECK_FALSE(checked_only.baseline);
}
