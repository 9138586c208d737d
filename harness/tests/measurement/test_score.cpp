// The ranked score: geometric means over shapes, the FP32 peak of a device and its
// formula, and which runs get a score at all.
#include <doctest/doctest.h>

#include "verification/run_score.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace gemm;

namespace {

DeviceInfo h200() {
    DeviceInfo d;
    d.present = true;
    d.name = "NVIDIA H200";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.sm_clock_mhz = 345; // idle when probed
    d.sm_clock_max_mhz = 1980;
    return d;
}

TimedRun timed(double median_ms, int sm_clock_mhz = 1980) {
    TimedRun t;
    t.stats.samples = 10;
    t.stats.median_ms = median_ms;
    t.sm_clock_mhz = sm_clock_mhz;
    return t;
}

CaseResult timed_case(const std::string &name, int size, double ms, std::optional<double> cublas_ms) {
    CaseResult r;
    r.name = name;
    r.M = r.N = r.K = size;
    r.verdict = Verdict::AC;
    r.timing = timed(ms);
    if (cublas_ms) r.baseline = timed(*cublas_ms);
    return r;
}

CaseResult untimed_case(const std::string &name, Verdict verdict) {
    CaseResult r;
    r.name = name;
    r.M = r.N = r.K = 3;
    r.verdict = verdict;
    return r;
}

} // namespace

TEST_CASE("geometric mean: every shape counts by the same factor") {
    CHECK(geometric_mean({4.0}) == doctest::Approx(4.0));
    CHECK(geometric_mean({1.0, 100.0}) == doctest::Approx(10.0));
    CHECK(geometric_mean({2.0, 8.0, 4.0}) == doctest::Approx(4.0));
    // 10% faster on the smallest or on the largest shape moves it by the same factor.
    const double before = geometric_mean({0.01, 1.0, 100.0});
    CHECK(geometric_mean({0.009, 1.0, 100.0}) / before == doctest::Approx(geometric_mean({0.01, 1.0, 90.0}) / before));
}

TEST_CASE("geometric mean refuses no values and values without a logarithm") {
    CHECK_THROWS_AS(geometric_mean({}), std::invalid_argument);
    CHECK_THROWS_AS(geometric_mean({1.0, 0.0}), std::invalid_argument);
    CHECK_THROWS_AS(geometric_mean({-2.0}), std::invalid_argument);
    CHECK_THROWS_AS(geometric_mean({NAN}), std::invalid_argument);
    CHECK_THROWS_AS(geometric_mean({INFINITY}), std::invalid_argument);
}

TEST_CASE("FP32 lanes per SM by compute capability") {
    CHECK(fp32_lanes_per_sm(7, 0) == 64);
    CHECK(fp32_lanes_per_sm(7, 5) == 64);
    CHECK(fp32_lanes_per_sm(8, 0) == 64);
    CHECK(fp32_lanes_per_sm(8, 6) == 128);
    CHECK(fp32_lanes_per_sm(8, 7) == 128);
    CHECK(fp32_lanes_per_sm(8, 9) == 128);
    CHECK(fp32_lanes_per_sm(9, 0) == 128);
    CHECK(fp32_lanes_per_sm(10, 0) == 128);
    CHECK(fp32_lanes_per_sm(12, 0) == 128);
    CHECK(fp32_lanes_per_sm(42, 7) == 128); // unknown: what every architecture since sm_86 has
}

TEST_CASE("the FP32 peak of an H200 at 1980 MHz is 66.9 TFLOP/s, and its formula says so") {
    const auto peak = fp32_peak(h200(), 1980);
    CHECK(peak.gflops() == doctest::Approx(132.0 * 128 * 2 * 1980 / 1000)); // 66908.16
    CHECK(peak.formula() == "132 SMs × 128 FP32 lanes × 2 FLOP × 1980 MHz = 66.9 TFLOP/s");
    CHECK(std::string(fp32_peak_rule).find("SMs × FP32 lanes per SM × 2") != std::string::npos);
}

TEST_CASE("the peak uses the clock read during the run, else the device's maximum") {
    const std::vector<CaseResult> run{timed_case("a", 64, 1.0, {}), timed_case("b", 64, 1.0, {})};
    auto slower = run;
    slower[0].timing->sm_clock_mhz = 1500;
    slower[1].timing->sm_clock_mhz = 1755;
    CHECK(sm_clock_during_run(slower, h200()) == 1755);
    CHECK(sm_clock_during_run({untimed_case("c", Verdict::AC)}, h200()) == 1980);
}

TEST_CASE("score of an all-AC run: geometric means of times, of ratios to cuBLAS and of the fraction of peak") {
    const std::vector<CaseResult> run{untimed_case("sample/01", Verdict::AC), timed_case("perf/a", 4096, 16.0, 4.0),
                                      timed_case("perf/b", 1024, 0.25, 0.25)};
    const auto score = score_of(run, h200());
    REQUIRE(score);
    CHECK(score->shapes == 2);
    CHECK(score->geomean_ms == doctest::Approx(2.0));
    REQUIRE(score->geomean_ratio_to_cublas);
    CHECK(*score->geomean_ratio_to_cublas == doctest::Approx(0.5)); // √(4/16 · 1)
    const double peak = 66908.16;
    const double gflops_a = 2.0 * 4096 * 4096 * 4096 / 16e6, gflops_b = 2.0 * 1024 * 1024 * 1024 / 0.25e6;
    REQUIRE(score->percent_of_peak);
    CHECK(*score->percent_of_peak == doctest::Approx(100 * std::sqrt(gflops_a / peak * gflops_b / peak)));
    CHECK(score->peak.formula() == "132 SMs × 128 FP32 lanes × 2 FLOP × 1980 MHz = 66.9 TFLOP/s");
}

TEST_CASE("no ratio to cuBLAS unless every timed shape has a cuBLAS time") {
    const auto score = score_of({timed_case("a", 256, 1.0, 0.5), timed_case("b", 256, 1.0, {})}, h200());
    REQUIRE(score);
    CHECK_FALSE(score->geomean_ratio_to_cublas);
    CHECK(score->percent_of_peak);
}

TEST_CASE("no percentage of peak when no clock is known") {
    auto device = h200();
    device.sm_clock_max_mhz = 0;
    auto run = std::vector<CaseResult>{timed_case("a", 256, 1.0, 0.5)};
    run[0].timing->sm_clock_mhz = 0;
    const auto score = score_of(run, device);
    REQUIRE(score);
    CHECK_FALSE(score->percent_of_peak);
}

TEST_CASE("no score for a run with a failed case or without a timed case") {
    CHECK_FALSE(score_of({timed_case("a", 256, 1.0, 0.5), untimed_case("b", Verdict::WA)}, h200()));
    CHECK_FALSE(score_of({untimed_case("a", Verdict::AC)}, h200()));
    CHECK_FALSE(score_of(std::vector<CaseResult>{}, h200()));
}

TEST_CASE("a judge run's score is over the cases timed against cuBLAS only, in cuBLAS time / yours, or none") {
    // As once happened: tiny cases timed without cuBLAS, where a tuned kernel's setup costs
    // more, make tiled look faster than h200_tuned by geometric-mean time; against cuBLAS on
    // the perf cases h200_tuned is four times faster.
    const std::vector<CaseResult> tiled{timed_case("sample/01-one-by-one", 1, 0.010, std::nullopt),
                                        timed_case("secret/04-primes", 131, 0.017, std::nullopt),
                                        timed_case("perf/01-cube-4096", 4096, 17.0, 2.7),
                                        timed_case("perf/02-leetgpu", 4096, 50.9, 8.1)};
    std::vector<CaseResult> tuned = tiled;
    tuned[0].timing = timed(0.05);
    tuned[1].timing = timed(0.08);
    tuned[2].timing = timed(4.25);
    tuned[3].timing = timed(12.7);
    REQUIRE(score_of(tiled, h200())->geomean_ms < score_of(tuned, h200())->geomean_ms); // the misleading figure

    const auto tiled_score = score_against_cublas(tiled, h200()), tuned_score = score_against_cublas(tuned, h200());
    REQUIRE(tiled_score);
    REQUIRE(tuned_score);
    CHECK(tiled_score->shapes == 2);
    CHECK(*tiled_score->geomean_ratio_to_cublas == doctest::Approx(std::sqrt(2.7 / 17.0 * 8.1 / 50.9)));
    CHECK(tiled_score->geomean_ms == doctest::Approx(std::sqrt(17.0 * 50.9)));
    CHECK(*tuned_score->geomean_ratio_to_cublas > 3.9 * *tiled_score->geomean_ratio_to_cublas);

    std::vector<CaseResult> without_cublas = tiled;
    for (auto &r : without_cublas) r.baseline.reset();
    CHECK_FALSE(score_against_cublas(without_cublas, h200())); // --baseline none: no score
    std::vector<CaseResult> failing = tiled;
    failing.push_back(untimed_case("secret/09-wrong", Verdict::WA));
    CHECK_FALSE(score_against_cublas(failing, h200()));
}
