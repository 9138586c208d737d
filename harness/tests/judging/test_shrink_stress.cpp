// Shrinking and the stress driver against synthetic failures: predicates stand in
// for a judged solution.
#include "judging/shrink.hpp"
#include "judging/stress.hpp"
#include "measurement/stats.hpp"
#include "testcases/problem_catalog.hpp"

#include <doctest/doctest.h>

#include <set>

using namespace gemm;

TEST_CASE("a failure of partial reduction tiles shrinks to 1×17×1 and names the threshold") {
    // A stale-shared-memory bug: wrong whenever N leaves a partial 16-wide tile after a full one.
    auto fails = [](const Shape &s) { return s.N > 16 && s.N % 16 != 0; };
    const auto r = shrink_failure({127, 131, 137}, fails);
    CHECK(r.smallest == Shape{1, 17, 1});
    CHECK(r.thresholds == std::vector<std::string>{"N = 16 passes"});
    CHECK(describe_thresholds(r) ==
          "fails once N passes a multiple of 16 (N = 16 passes, N = 17 fails): the reduction loop's partial tile");
}

TEST_CASE("a failure on partial tiles along K keeps K at the first failing size") {
    auto fails = [](const Shape &s) { return s.K % 32 != 0 && s.K > 32; };
    const auto r = shrink_failure({100, 100, 100}, fails);
    CHECK(r.smallest == Shape{1, 1, 33});
    CHECK(describe_thresholds(r).find("partial tiles along K") != std::string::npos);
}

TEST_CASE("a failure at every shape shrinks to 1×1×1 without thresholds") {
    const auto r = shrink_failure({64, 64, 64}, [](const Shape &) { return true; });
    CHECK(r.smallest == Shape{1, 1, 1});
    CHECK(r.thresholds.empty());
    CHECK(describe_thresholds(r).empty());
}

TEST_CASE("shrinking never judges a shape twice and stops at its attempt limit") {
    std::set<Shape> seen;
    int calls = 0;
    auto fails = [&](const Shape &s) {
        ++calls;
        CHECK(seen.insert(s).second);
        return (s.M + s.N + s.K) % 7 != 0;
    };
    const auto r = shrink_failure({1000, 999, 998}, fails, 10);
    CHECK(calls == r.attempts);
    CHECK(r.attempts <= 10);
}

TEST_CASE("stress shapes are reproducible from their seed and lie within the bound") {
    const auto a = stress_shapes(200, 7, 300);
    CHECK(a.size() == 200);
    CHECK(stress_shapes(200, 7, 300) == a);
    CHECK_FALSE(stress_shapes(200, 8, 300) == a);
    int odd = 0, edges = 0;
    for (const auto &s : a) {
        for (int d : {s.M, s.N, s.K}) {
            REQUIRE(d >= 1);
            REQUIRE(d <= 300);
            odd += d % 2;
            edges += d == 16 || d == 32 || d == 64 || d == 128 || d == 256;
        }
    }
    CHECK(odd > 450);  // of 600 dimensions, three quarters are odd by construction
    CHECK(edges > 10); // and the tile edges themselves appear
}

TEST_CASE("stress shapes respect a small bound") {
    for (const auto &s : stress_shapes(50, 1, 3)) {
        CHECK(s.M <= 3);
        CHECK(s.N <= 3);
        CHECK(s.K <= 3);
    }
}

TEST_CASE("--stress of every judged problem draws valid cases in its dims, within the default problem's work") {
    const std::string root = std::string(GEMM_SOURCE_DIR) + "/testcases";
    // The default problem's cases are stress_shapes' draws, as before problems.
    const auto seed_cases = stress_cases(default_problem(), 20, 7, 256, "uniform -1 1");
    const auto shapes = stress_shapes(20, 7, 256);
    REQUIRE(seed_cases.size() == shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) CHECK(shape_of(seed_cases[i]) == shapes[i]);
    for (const auto &problem : problems_below(root)) {
        if (!problem.not_yet_judged().empty()) continue;
        CAPTURE(problem.name);
        const auto cases = stress_cases(problem, 30, 11, 256, problem.default_data()); // int8's: integers
        REQUIRE(cases.size() == 30);
        std::set<std::vector<long long>> distinct;
        for (const auto &tc : cases) {
            CHECK(tc.dims.size() == problem.dims.size());
            CHECK(flop_count(tc.M, tc.N, tc.K, tc.layout.batch) <= 2.0 * 256 * 256 * 256);
            distinct.insert(tc.dims);
        }
        CHECK(distinct.size() > 10); // drawn, not one shape repeated
        CHECK(stress_cases(problem, 30, 11, 256, problem.default_data())[29].dims == cases[29].dims); // reproducible
    }
}
