// LeetGPU #32's int8 output: the problem's FP32 steps in order, half-way cases to even, the
// clamp, and the explanation of a wrong element in terms of the slip that gives it.
#include "common/requantization.hpp"
#include "test_support.hpp"
#include "verification/check.hpp"
#include "verification/requantization_explanation.hpp"

#include <doctest/doctest.h>
#include <vector>

using namespace gemm;
using gemm::test::contains;

namespace {

// testcases/leetgpu/32-int8-quantized-matmul/secret/07-half-steps: a scale of 1/128, so a sum
// that is an odd multiple of 64 lands half-way.
Requantization half_steps() {
    return requantization_of({{"scale_A", 1.0}, {"scale_B", 0.5}, {"scale_C", 64.0}, {"zero_point_C", 1}});
}

} // namespace

TEST_CASE("the requantization rounds half to even after the problem's FP32 steps, shifts and clamps") {
    const Requantization q = half_steps();
    CHECK(q.scaled(64) == 0.5f);
    CHECK(q.output(64) == 1);    // 0.5 → 0, + 1
    CHECK(q.output(192) == 3);   // 1.5 → 2, + 1
    CHECK(q.output(-64) == 1);   // −0.5 → −0, + 1
    CHECK(q.output(-192) == -1); // −1.5 → −2, + 1
    CHECK(q.output(1e6) == 127);
    CHECK(q.output(-1e6) == -128);
    // The steps in order, each rounded to FP32: 0.1f·0.1f/0.01f is not the exact 1.
    const Requantization site = requantization_of({{"scale_A", 0.1}, {"scale_B", 0.1}, {"scale_C", 0.01}});
    CHECK(site.scale_A == 0.1f);
    const float expected = 77.0f * 0.1f * 0.1f / 0.01f;
    CHECK(site.scaled(77) == expected);
    // Past int32's range the clamp decides, with no overflow on the way.
    const Requantization huge = requantization_of({{"scale_A", 1e30}, {"scale_B", 1.0}, {"scale_C", 1.0}});
    CHECK(huge.output(5) == 127);
    CHECK(huge.output(-5) == -128);
}

TEST_CASE("a wrong int8 element is explained by the slip that gives it") {
    const Requantization q = half_steps();
    // roundf: 0.5 → 1, + 1 = 2 where the problem gives 1.
    const std::string away = explain_requantized_element(q, {60, 4}, 2);
    CHECK(contains(away, "the exact sum 64"));
    CHECK(contains(away, "is 0.5"));
    CHECK(contains(away, "rounding half away from zero"));
    CHECK(contains(explain_requantized_element(q, {64}, 0), "zero_point_C not added"));
    CHECK(contains(explain_requantized_element(q, {200}, 2), "truncated toward zero")); // 1.5625 → 1, + 1
    const Requantization wide = requantization_of({{"scale_A", 1.0}, {"scale_B", 1.0}, {"scale_C", 1.0}});
    CHECK(contains(explain_requantized_element(wide, {200}, -56), "no clamp"));
    CHECK(contains(explain_requantized_element(wide, {5}, 9), "none of the usual slips"));
}

TEST_CASE("a wrong int8 element from a sum kept in FP32 is explained by 2^24, in any order") {
    // 300 products of 255·255 and 253·253: the partial sums pass 2^24 at the 259th, and an FP32
    // sum, first to last, ends 40 below the exact 19,355,100. scale_C puts the half-way point
    // between the two: the exact sum gives 201 − 100, the FP32 sum 200 − 100.
    std::vector<double> terms;
    for (int i = 0; i < 300; ++i) terms.push_back(i % 2 ? 65025 : 64009);
    const Requantization q =
        requantization_of({{"scale_A", 1.0}, {"scale_B", 1.0}, {"scale_C", 96534.0625}, {"zero_point_C", -100}});
    REQUIRE(q.output(19355100) == 101);
    const std::string in_order = explain_requantized_element(q, terms, 100);
    CHECK(contains(in_order, "the exact sum 19355100"));
    CHECK(contains(in_order, "as with the sum kept in FP32"));
    CHECK(contains(in_order, "2^24"));
    CHECK_FALSE(contains(in_order, "truncated")); // which gives 100 too, by chance
    // A wrong value the in-order FP32 sum does not give: still the likely cause, said as such.
    CHECK(contains(explain_requantized_element(q, terms, 99), "a sum kept in FP32 (in another order)"));
    // Below 2^24 an FP32 sum is exact: never the explanation.
    CHECK_FALSE(contains(explain_requantized_element(q, {65025, 64009}, 99), "kept in FP32"));
}

TEST_CASE("an exact check's WA names the elements that differ and why, with no bound or normwise test") {
    OutputCheck o;
    o.exact = true;
    o.elements = 4087;
    o.out_of_bound = 12;
    o.first_out_of_bound = BadElement{3, 5, 1, 2, 0};
    o.explanation = "the exact sum 64 …; got 2, as with rounding half away from zero";
    o.normwise_ratio = 0;
    const Judgement j = judge_output(o, IntegrityCheck{});
    CHECK(j.verdict == Verdict::WA);
    CHECK(contains(j.detail, "12 of 4087 elements differ from the exact answer; first at row 3, col 5: expected 1, "
                             "got 2 (the exact sum 64"));
    CHECK_FALSE(contains(j.detail, "bound"));
    o.out_of_bound = 0;
    o.first_out_of_bound.reset();
    CHECK(judge_output(o, IntegrityCheck{}).verdict == Verdict::AC);
}
