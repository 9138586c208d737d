// What decides which cases run, in one place beside the category table
// (testcases/categories.hpp): the named selections, fail fast, the GPU's memory and
// --sanitize's size.
#include "testcases/categories.hpp"

#include <doctest/doctest.h>

using namespace gemm;

namespace {

TestCase case_of_shape(int M, int N, int K) {
    TestCase tc;
    tc.name = "secret/shape";
    tc.category = "secret";
    tc.M = M;
    tc.N = N;
    tc.K = K;
    return tc;
}

} // namespace

TEST_CASE("the named selections: default is what runs without --category, quick the samples alone") {
    REQUIRE(find_run_selection("default") != nullptr);
    CHECK(find_run_selection("default")->categories == default_category_names());
    REQUIRE(find_run_selection("quick") != nullptr);
    CHECK(find_run_selection("quick")->categories == std::vector<std::string>{"sample"});
    CHECK(find_run_selection("sample") == nullptr);
}

TEST_CASE("fail fast stops after the limit of crashes and hangs, never with --keep-going") {
    CHECK_FALSE(fail_fast_stops(fail_fast_limit - 1, false));
    CHECK(fail_fast_stops(fail_fast_limit, false));
    CHECK_FALSE(fail_fast_stops(fail_fast_limit, true));
}

TEST_CASE("a case too big for the GPU's memory is skipped with the sizes said, and --sanitize keeps the small cases") {
    CHECK_FALSE(too_big_for_gpu(case_of_shape(64, 64, 64), 80'000'000'000LL));
    const auto why = too_big_for_gpu(case_of_shape(65536, 65536, 65536), 80'000'000'000LL);
    REQUIRE(why);
    CHECK(why->find("the GPU has 80 GB") != std::string::npos);
    CHECK(small_enough_to_sanitize(case_of_shape(128, 128, 256)));
    CHECK_FALSE(small_enough_to_sanitize(case_of_shape(256, 256, 256)));
}
