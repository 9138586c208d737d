// The judge decides each case's policy once, from its category and the command line.
#include <doctest/doctest.h>

#include "judging/case_policy.hpp"
#include "testcases/categories.hpp"

#include <algorithm>
#include <filesystem>

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
    CaseRunOptions o;
    CHECK(policy_for(in_category("perf"), o).baseline);
    CHECK_FALSE(policy_for(in_category("secret"), o).baseline);
    o.baseline = "all";
    CHECK(policy_for(in_category("secret"), o).baseline);
    o.baseline = "none";
    CHECK_FALSE(policy_for(in_category("perf"), o).baseline);
}

TEST_CASE("every case is timed, huge cases are not shrunk, sample cases are revealed") {
    CaseRunOptions o;
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

TEST_CASE("cases timed for correctness alone get a shorter budget unless --time-budget is given") {
    CaseRunOptions o;
    CHECK(policy_for(in_category("perf"), o).sampling.budget_s == 0.3);
    CHECK(policy_for(in_category("rank"), o).sampling.budget_s == 0.3);
    CHECK(policy_for(in_category("secret"), o).sampling.budget_s == correctness_budget_s);
    CHECK(policy_for(in_category("sample"), o).sampling.budget_s == correctness_budget_s);
    CHECK(policy_for(in_category("secret"), o).sampling.max_samples == correctness_max_samples);
    CHECK(policy_for(in_category("perf"), o).sampling.max_samples == SamplingRule{}.max_samples);
    o.baseline = "all"; // timed against cuBLAS: the whole budget
    CHECK(policy_for(in_category("secret"), o).sampling.budget_s == 0.3);
    CHECK(policy_for(in_category("secret"), o).sampling.max_samples == SamplingRule{}.max_samples);
    o.baseline = "perf";
    o.time_budget_s = 0.05; // a budget below the correctness one is used as it is
    CHECK(policy_for(in_category("secret"), o).sampling.budget_s == 0.05);
    o.time_budget_s = 1.5;
    o.time_budget_given = true;
    CHECK(policy_for(in_category("secret"), o).sampling.budget_s == 1.5);
    CHECK(policy_for(in_category("perf"), o).sampling.budget_s == 1.5);
}

TEST_CASE("each category's row decides its policy, and the suite's folders are exactly the table's categories") {
    CaseRunOptions o;
    o.shrink = true;
    for (const auto &category : categories()) {
        CAPTURE(category.name);
        const CasePolicy p = policy_for(in_category(category.name), o);
        CHECK(p.baseline == category.against_cublas);
        CHECK(p.shrink == category.shrinks);
        CHECK(p.reveal == category.public_data);
        CHECK((p.sampling.budget_s == o.time_budget_s) == (category.measured || category.against_cublas));
    }
    CHECK(default_category_names() == std::vector<std::string>{"sample", "secret", "perf"});
    std::vector<std::string> folders;
    // The sites' folders hold other problems' suites (docs/problems.md), not categories.
    const std::vector<std::string> sites{"kernelbench", "leetgpu", "tensara"};
    for (const auto &entry : std::filesystem::directory_iterator(GEMM_SOURCE_DIR "/testcases"))
        if (entry.is_directory() &&
            std::find(sites.begin(), sites.end(), entry.path().filename().string()) == sites.end())
            folders.push_back(entry.path().filename().string());
    std::sort(folders.begin(), folders.end());
    auto names = category_names();
    std::sort(names.begin(), names.end());
    CHECK(folders == names);
}
