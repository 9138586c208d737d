// The site's own allclose, reported beside the verdict (verification/site_allclose.hpp), and
// the tolerance each problem's descriptor gives it.
#include <doctest/doctest.h>

#include "test_support.hpp"
#include "testcases/problem.hpp"
#include "testcases/problem_catalog.hpp"
#include "verification/check.hpp"
#include "verification/site_allclose.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace gemm;

TEST_CASE("the site's allclose: |C − R| ≤ atol + rtol·|R|, a NaN or an unwritten element never close") {
    const SiteTolerance t{1e-3, 1e-2};
    CHECK(within_site_allclose(1.0f, 1.0, t));
    CHECK(within_site_allclose(1.0105f, 1.0, t));       // 0.0105 ≤ 0.001 + 0.01
    CHECK_FALSE(within_site_allclose(1.0125f, 1.0, t)); // 0.0125 > 0.011
    CHECK(within_site_allclose(-100.9f, -100.0, t));    // relative to |R|
    CHECK(within_site_allclose(0.0009f, 0.0, t));       // atol alone where R is 0
    CHECK_FALSE(within_site_allclose(0.0011f, 0.0, t));
    CHECK_FALSE(within_site_allclose(std::numeric_limits<float>::quiet_NaN(), 1.0, t));
    float poison;
    const std::uint32_t bits = poison_bits;
    std::memcpy(&poison, &bits, sizeof poison);
    CHECK_FALSE(within_site_allclose(poison, 0.0, t));
    CHECK(within_site_allclose(INFINITY, INFINITY, t));
    CHECK_FALSE(within_site_allclose(-INFINITY, INFINITY, t));
    CHECK_FALSE(within_site_allclose(INFINITY, 1e30, t));
    const SiteTolerance exact{0, 0}; // LeetGPU #32's int8: exact
    CHECK(within_site_allclose(3.0f, 3.0, exact));
    CHECK_FALSE(within_site_allclose(3.0f, 3.0000001, exact));

    const std::vector<float> C{1.0f, 2.5f, std::numeric_limits<float>::quiet_NaN(), 4.0f};
    const std::vector<double> R{1.0, 2.0, 3.0, 4.0};
    const SiteAllclose s = site_allclose(C.data(), R.data(), C.size(), t);
    CHECK(s.elements == 4);
    CHECK(s.outside == 2);
    CHECK_FALSE(s.passes());
    CHECK(s.tolerance == t);
}

TEST_CASE("every problem names its site's tolerance, and the default problem's built-in one is its file's") {
    const std::string root = std::string(GEMM_SOURCE_DIR) + "/testcases";
    for (const auto &problem : problems_below(root)) {
        CAPTURE(problem.name);
        const auto t = problem.site_tolerance();
        REQUIRE(t);
        CHECK(t->atol >= 0);
        CHECK(t->rtol >= 0);
    }
    REQUIRE(default_problem().site_tolerance());
    CHECK(*default_problem().site_tolerance() == *suite_problem(root).site_tolerance());
    CHECK(*suite_problem(root + "/tensara/gemm-relu").site_tolerance() == SiteTolerance{0.0002, 0.003});
}
