// The competitive modes on the CPU: compare's statistics through the real judge on two
// reports, history's changes and significance, the leaderboard per GPU model, the
// rounds rule of rank and compare, the ncu CSV reader of --profile, and JUnit output.
#include <doctest/doctest.h>

#include "judge/history.hpp"
#include "judge/process.hpp"
#include "judge/profile.hpp"
#include "judge/ranked_set.hpp"
#include "judge/reporter.hpp"
#include "test_support.hpp"

#include <nlohmann/json.hpp>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

const std::string judge_program = std::string(GEMM_BIN_DIR) + "/gemm-judge";

// A judge report with one timed case whose calls took `ms` plus a little spread.
std::string report_with(double ms, std::uint64_t seed, double rank_noise_floor = -1) {
    std::vector<double> samples;
    SplitMix64 g(seed);
    for (int i = 0; i < 30; ++i) samples.push_back(ms * (1 + 0.004 * static_cast<double>(g.next() % 1000) / 1000));
    nlohmann::json timing = {{"samples_ms", samples}, {"median_ms", ms}};
    nlohmann::json c = {{"name", "perf/01-cube-4096"}, {"M", 4096}, {"N", 4096}, {"K", 4096}, {"timing", timing}};
    nlohmann::json report = {{"cases", nlohmann::json::array({c})}};
    if (rank_noise_floor >= 0) report["rank"] = {{"noise_floor", rank_noise_floor}};
    return report.dump();
}

Attempt ranked_attempt(const std::string &path, const std::string &gpu, double ratio, double floor) {
    Attempt a;
    a.mode = "rank";
    a.solution_name = std::filesystem::path(path).filename().string();
    a.solution_path = path;
    a.gpu_name = gpu;
    a.worst_verdict = "AC";
    a.geomean_ms = 3.0 / ratio;
    a.geomean_ratio_to_cublas = ratio;
    a.noise_floor = floor;
    a.report_json = "{}";
    return a;
}

} // namespace

TEST_CASE(
    "compare of a report against a 2× faster one says so with a tiny p-value, and against itself not significant") {
    TempFolder folder;
    const auto slow = folder.write("slow.json", report_with(17.0, 1));
    const auto fast = folder.write("fast.json", report_with(8.5, 2));
    const auto faster = run_captured({judge_program, "compare", slow, fast, "--no-history"});
    CHECK(faster.exit_code == 0);
    CHECK(contains(faster.output, "new is faster"));
    // 30 calls against 30, fully separated: U = 0, z = −449.5/67.6, two-sided p = 3e−11.
    CHECK(contains(faster.output, "3e-11"));
    const auto same = run_captured({judge_program, "compare", slow, slow});
    CHECK(contains(same.output, "not significant"));
    const auto mixed = run_captured({judge_program, "compare", slow, folder.write("x.cu", "")});
    CHECK(mixed.exit_code == 64);
}

TEST_CASE(
    "history shows each attempt's change since the previous and the best, inside the noise floor not significant") {
    TempFolder folder;
    const auto db = folder.at("h.sqlite");
    {
        History h = History::open(db);
        h.record(ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.160, 0.004));
        h.record(ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.1605, 0.004)); // +0.3%: inside the floor
        h.record(ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.320, 0.004));  // +99%
    }
    const auto run = run_captured({judge_program, "history", "tiled.cu", "--history", db});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.output, "+0.3% (not significant)"));
    CHECK(contains(run.output, "+99.4%"));
    CHECK(contains(run.output, "0.320×"));
}

TEST_CASE("a change smaller than a rank report's noise floor is not significant, however small its p-value") {
    TempFolder folder;
    const auto before = folder.write("before.json", report_with(10.0, 3, 0.01));
    const auto after = folder.write("after.json", report_with(9.95, 4, 0.004)); // 0.5% faster, samples apart
    const auto within = run_captured({judge_program, "compare", before, after});
    CHECK(contains(within.output, "not significant"));
    CHECK(contains(within.output, "noise floor 1.00%"));
    const auto outside = run_captured({judge_program, "compare", folder.write("b.json", report_with(10.0, 3, 0.001)),
                                       folder.write("a.json", report_with(9.95, 4, 0.001))});
    CHECK(contains(outside.output, "new is faster"));
}

TEST_CASE("the leaderboard gives one board per GPU model, best first") {
    TempFolder folder;
    const auto db = folder.at("h.sqlite");
    {
        History h = History::open(db);
        h.record(ranked_attempt("/k/naive.cu", "NVIDIA H200", 0.10, 0.004));
        h.record(ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.16, 0.004));
        h.record(ranked_attempt("/k/tiled.cu", "NVIDIA A100", 0.30, 0.004));
    }
    const auto run = run_captured({judge_program, "leaderboard", "--history", db});
    CHECK(run.exit_code == 0);
    const auto h200 = run.output.find("leaderboard on NVIDIA H200"),
               a100 = run.output.find("leaderboard on NVIDIA A100");
    REQUIRE(h200 != std::string::npos);
    REQUIRE(a100 != std::string::npos);
    const std::string board = run.output.substr(h200);
    CHECK(board.find("tiled.cu") < board.find("naive.cu"));
    CHECK(run.output.substr(a100, h200 > a100 ? h200 - a100 : std::string::npos).find("naive.cu") == std::string::npos);
}

TEST_CASE("rounds repeat until every shape is steady, at least twice, and stop when the budget is spent") {
    const RoundRule rule(0.01, 3600);
    CHECK(rule.wants_more(0, 0.0));
    CHECK(rule.wants_more(1, 0.0));
    CHECK_FALSE(rule.wants_more(2, 0.005));
    CHECK(rule.wants_more(2, 0.02));
    const RoundRule spent(0.01, 0.0);
    CHECK_FALSE(spent.wants_more(2, 0.5));
    PooledTiming pooled;
    TimedRun round;
    round.samples_ms = {1.0, 1.0, 1.0, 1.0};
    round.stats.median_ms = 1.0;
    pooled.add(round);
    round.samples_ms = {2.0, 2.0, 2.0, 2.0};
    round.stats.median_ms = 2.0;
    pooled.add(round);
    CHECK(pooled.timed_run().stats.samples == 8);
    CHECK(pooled.round_medians_ms == std::vector<double>{1.0, 2.0});
    CHECK(pooled.spread() == doctest::Approx(2.0 / 3.0 * 1.5).epsilon(0.5)); // two clusters: a wide spread
}

TEST_CASE("the ncu CSV of a call is read: durations summed, the longest kernel's figures kept") {
    const std::string csv =
        "==PROF== Connected to process 12\n"
        "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\","
        "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\",\"sm__warps_active.avg.pct_of_peak_sustained_active\","
        "\"launch__registers_per_thread\",\"launch__shared_mem_per_block_static\","
        "\"launch__shared_mem_per_block_dynamic\",\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n"
        "\"\",\"\",\"nsecond\",\"%\",\"%\",\"%\",\"register/thread\",\"byte\",\"Kbyte\",\"inst\"\n"
        "\"0\",\"zero_fill\",\"2,000\",\"80.5\",\"10\",\"50\",\"16\",\"0\",\"0\",\"0\"\n"
        "\"1\",\"gemm_kernel(float const*)\",\"2,900,000\",\"3.1\",\"89.5\",\"12.4\",\"246\",\"0\",\"48.5\","
        "\"68719476736\"\n";
    const auto p = parse_ncu_csv(csv);
    REQUIRE(p.has_value());
    CHECK(p->kernels == 2);
    CHECK(p->duration_ms == doctest::Approx(2.902));
    CHECK(p->kernel == "gemm_kernel(float const*)");
    CHECK(p->dram_percent == doctest::Approx(3.1));
    CHECK(p->registers == 246);
    CHECK(p->shared_bytes == doctest::Approx(48500));
    CHECK(p->ffma_flop == doctest::Approx(2 * 68719476736.0));
    CHECK_FALSE(parse_ncu_csv("==PROF== no kernels were profiled\n").has_value());
}

TEST_CASE("JUnit output has a testcase per case, failures for WA and TLE, errors for RE, CE and JE") {
    RunContext run;
    run.solution = "dir/sol.cu";
    std::vector<CaseResult> results(3);
    results[0].name = "sample/a";
    results[0].verdict = Verdict::AC;
    results[1].name = "secret/b<1>";
    results[1].verdict = Verdict::WA;
    results[1].detail = "3 of 9 elements \"wrong\" & more";
    results[2].name = "perf/c";
    results[2].verdict = Verdict::RE;
    const std::string xml = junit_xml(run, results);
    CHECK(contains(xml, "tests=\"3\" failures=\"1\" errors=\"1\""));
    CHECK(contains(xml, "<testcase classname=\"sol.cu\" name=\"sample/a\" time=\"0.000\" />"));
    CHECK(contains(xml, "name=\"secret/b&lt;1>\""));
    CHECK(contains(xml, "<failure type=\"WA\" message=\"WA: 3 of 9 elements &quot;wrong&quot; &amp; more\">3 of 9 "
                        "elements \"wrong\" &amp; more</failure>"));
    CHECK(contains(xml, "<error type=\"RE\""));
}
