// The competitive modes on the CPU: compare's statistics through the real judge on two
// reports, history's changes and significance, the leaderboard per GPU model, the
// rounds rule of rank and compare, the ncu CSV reader of --profile, and JUnit output.
#include <doctest/doctest.h>

#include "command_line/history/history.hpp"
#include "command_line/modes/profile.hpp"
#include "command_line/modes/ranked_set.hpp"
#include "command_line/reporters/console_reporter.hpp"
#include "command_line/reporters/history_reporter.hpp"
#include "command_line/reporters/json_reporter.hpp"
#include "command_line/reporters/junit_reporter.hpp"
#include "command_line/reporters/reporter_set.hpp"
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>
#include <sqlite3.h>

using namespace gemm;
using gemm::test::bytes_of;
using gemm::test::contains;
using gemm::test::judge_program;
using gemm::test::skip_without_nvcc;
using gemm::test::TempFolder;
using gemm::test::unwrapped;

namespace {

// A judge report with one timed case whose calls took `ms` plus a little spread.
std::string report_with(double ms, std::uint64_t seed) {
    std::vector<double> samples;
    SplitMix64 g(seed);
    for (int i = 0; i < 30; ++i) samples.push_back(ms * (1 + 0.004 * static_cast<double>(g.next() % 1000) / 1000));
    nlohmann::json timing = {{"samples_ms", samples}, {"median_ms", ms}};
    nlohmann::json c = {{"name", "perf/01-cube-4096"}, {"M", 4096}, {"N", 4096}, {"K", 4096}, {"timing", timing}};
    return nlohmann::json({{"cases", nlohmann::json::array({c})}}).dump();
}

// A rank report of one shape: 3 rounds of 30 calls around `ms`, each round's level moved
// by its offset, with the rows' round sizes that let compare see the rounds.
std::string rank_report_with(double ms, std::uint64_t seed, const std::vector<double> &round_offsets) {
    std::vector<double> samples;
    SplitMix64 g(seed);
    for (double offset : round_offsets)
        for (int i = 0; i < 30; ++i)
            samples.push_back(ms * (1 + offset) * (1 + 0.002 * static_cast<double>(g.next() % 1000) / 1000));
    nlohmann::json timing = {{"samples_ms", samples}, {"median_ms", ms}};
    nlohmann::json c = {{"name", "perf/01-cube-4096"}, {"M", 4096}, {"N", 4096}, {"K", 4096}, {"timing", timing}};
    nlohmann::json sizes = nlohmann::json::array();
    for (std::size_t r = 0; r < round_offsets.size(); ++r) sizes.push_back(30);
    nlohmann::json row = {{"name", "perf/01-cube-4096"}, {"round_sizes", sizes}};
    return nlohmann::json({{"cases", nlohmann::json::array({c})}, {"rank", {{"rows", nlohmann::json::array({row})}}}})
        .dump();
}

// A rank report of one shape whose times are `raw` less an offset the side measured itself:
// `offset_ms` taken off every call, the raw samples and the empty call kept beside them.
std::string rank_report_raw(std::uint64_t seed, double raw_ms, double offset_ms) {
    std::vector<double> raw, samples;
    SplitMix64 g(seed);
    for (int r = 0; r < 3; ++r)
        for (int i = 0; i < 30; ++i) {
            raw.push_back(raw_ms * (1 + 0.002 * static_cast<double>(g.next() % 1000) / 1000));
            samples.push_back(raw.back() - offset_ms);
        }
    nlohmann::json timing = {{"samples_ms", samples},
                             {"raw_samples_ms", raw},
                             {"median_ms", raw_ms - offset_ms},
                             {"empty_call", {{"median_ms", offset_ms}}}};
    nlohmann::json c = {{"name", "rank/06-odd-3001"}, {"M", 3001}, {"N", 2999}, {"K", 3003}, {"timing", timing}};
    nlohmann::json row = {{"name", "rank/06-odd-3001"}, {"round_sizes", {30, 30, 30}}};
    return nlohmann::json({{"cases", nlohmann::json::array({c})}, {"rank", {{"rows", nlohmann::json::array({row})}}}})
        .dump();
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

void overwrite_first_100_bytes(const std::string &path) {
    std::fstream file(path, std::ios::in | std::ios::out | std::ios::binary);
    file << std::string(100, '#');
}

std::vector<std::filesystem::path> damaged_copies(const TempFolder &folder, const std::string &name) {
    std::vector<std::filesystem::path> found;
    for (const auto &entry : std::filesystem::directory_iterator(folder.path))
        if (entry.path().filename().string().rfind(name + ".damaged-", 0) == 0) found.push_back(entry.path());
    return found;
}

std::string another_programs_database(const TempFolder &folder) {
    const auto path = folder.at("notes.db");
    sqlite3 *db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_exec(db, "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine');", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    return path;
}

TimedRun timed_at(double ms) {
    TimedRun t;
    t.samples_ms = {ms, ms, ms};
    t.stats.samples = 3;
    t.stats.median_ms = t.stats.min_ms = t.stats.max_ms = t.stats.q1_ms = t.stats.q3_ms = ms;
    t.sm_clock_mhz = 1980;
    return t;
}

CaseResult judged_case(const std::string &name, int size, double ms, std::optional<double> cublas_ms) {
    CaseResult r;
    r.name = name;
    r.M = r.N = r.K = size;
    r.verdict = Verdict::AC;
    r.timing = timed_at(ms);
    if (cublas_ms) r.baseline = timed_at(*cublas_ms);
    return r;
}

RunContext run_on_h200(const std::string &solution) {
    RunContext run;
    run.solution = solution;
    run.device.present = true;
    run.device.name = "NVIDIA H200";
    run.device.cc_major = 9;
    run.device.sm_count = 132;
    run.device.sm_clock_max_mhz = 1980;
    return run;
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
    // A report of another problem: the same case name and shape, another computation. A report
    // without the key (before problems) is the default problem's.
    auto other = nlohmann::json::parse(report_with(8.5, 2));
    other["problem"] = "kernelbench/1-square-matmul";
    const auto across = run_captured({judge_program, "compare", slow, folder.write("other.json", other.dump())});
    CAPTURE(across.output);
    CHECK(across.exit_code == 64);
    CHECK(contains(unwrapped(across.output), "judged leetgpu/2-matrix-multiplication"));
    CHECK(contains(unwrapped(across.output), "two reports compare only within one problem"));
    other["problem"] = "leetgpu/2-matrix-multiplication";
    CHECK(run_captured({judge_program, "compare", slow, folder.write("same.json", other.dump()), "--no-history"})
              .exit_code == 0);
}

TEST_CASE("compare --plot without matplotlib, where it cannot be installed: exit 7 naming the command, nothing "
          "written or recorded") {
    TempFolder folder;
    // A checkout whose plot.py never finds matplotlib, for a user who is not root.
    for (const std::string script : {"build.sh", "ensure-matplotlib.sh"})
        folder.write("checkout/scripts/lib/" + script,
                     bytes_of(std::string(GEMM_SOURCE_DIR) + "/scripts/lib/" + script));
    folder.write("checkout/harness/command_line/reporters/plot.py", "import sys\nsys.exit(3)\n");
    const auto id = folder.write("bin/id", "#!/bin/sh\necho 1000\n");
    std::filesystem::permissions(id, std::filesystem::perms::owner_all);
    const auto slow = folder.write("slow.json", report_with(17.0, 1));
    const auto fast = folder.write("fast.json", report_with(8.5, 2));
    ChildSetup setup;
    setup.environment = {"GEMM_JUDGE_ROOT=" + folder.at("checkout"),
                         "PATH=" + folder.at("bin") + ":" + std::getenv("PATH")};
    const auto run = run_captured({judge_program, "compare", slow, fast, "--history", folder.at("h.sqlite"), "--json",
                                   folder.at("c.json"), "--plot", folder.at("c.png")},
                                  setup);
    CHECK(run.exit_code == 7);
    CHECK(contains(run.output, "judge: setup: --plot needs matplotlib"));
    CHECK(contains(run.output, "sudo apt-get install --no-install-recommends python3-matplotlib"));
    for (const char *file : {"h.sqlite", "c.json", "c.png"}) CHECK(!std::filesystem::exists(folder.at(file)));
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
    CHECK(contains(run.output, "(+0.3%)"));
    CHECK(contains(run.output, "+99.4%"));
    CHECK(contains(run.output, "0.320×"));
}

TEST_CASE("comparing rank reports: rounds that disagree make a 0.5% change not significant, however small its p") {
    TempFolder folder;
    // 0.5% faster in every call, 3 rounds of 30 calls: the rounds of each side 1% apart, or 0.05%.
    const auto before = folder.write("before.json", rank_report_with(10.0, 3, {0.0, 0.01, -0.01}));
    const auto after = folder.write("after.json", rank_report_with(9.95, 4, {0.0, 0.01, -0.01}));
    const auto within = run_captured({judge_program, "compare", before, after});
    CHECK(within.exit_code == 0);
    CHECK(contains(within.output, "not significant"));
    CHECK(contains(within.output, "at 99% for all 1 shape(s) together (99.00% each, Bonferroni)"));
    CHECK(contains(within.output, "significant: the interval excludes 1 and p < 0.05"));
    const auto outside = run_captured({judge_program, "compare",
                                       folder.write("b.json", rank_report_with(10.0, 3, {0.0, 0.0005, -0.0005})),
                                       folder.write("a.json", rank_report_with(9.95, 4, {0.0, 0.0005, -0.0005}))});
    CHECK(contains(outside.output, "new is faster"));
}

TEST_CASE("compare '#abc' is a bad command line naming the argument, and compare --help states the method") {
    const auto run = run_captured({judge_program, "compare", "#abc", "#2"});
    CHECK(run.exit_code == 64);
    CHECK(contains(run.output, "#abc: a history attempt is # and its id"));
    CHECK_FALSE(contains(run.output, "internal error"));
    const auto help = run_captured({judge_program, "compare", "--help"});
    CHECK(help.exit_code == 0);
    CHECK(contains(help.output, "bootstrap"));
    CHECK(contains(help.output, "interval excludes 1 and p < 0.05"));
}

TEST_CASE("compare of a good and a broken solution reports the broken one's CE, with or without a GPU") {
    if (skip_without_nvcc()) return;
    const std::string source = GEMM_SOURCE_DIR;
    // The checkout's files, so the tests' shared cache: the good side is compiled once.
    const auto run = run_captured({judge_program, "compare", source + "/solutions/01-naive.cu",
                                   source + "/harness/tests/known-bad/compile-error.cu", "--cache-dir",
                                   gemm::test::shared_compile_cache()});
    CHECK(run.exit_code == 4);
    CHECK(contains(run.output, "compile-error.cu"));
    CHECK(contains(run.output, "error"));
}

TEST_CASE("compare compiles each side with the include folders of its own folder's gemm-judge.conf") {
    if (skip_without_nvcc()) return;
    TempFolder folder;
    const std::string naive = bytes_of(std::string(GEMM_SOURCE_DIR) + "/solutions/01-naive.cu");
    // Each side includes a header only its own folder's gemm-judge.conf makes visible.
    for (const std::string side : {"old", "new"}) {
        folder.write(side + "/gemm-judge.conf", "include headers\n");
        folder.write(side + "/headers/only_" + side + ".h", "#define SIDE_" + side + " 1\n");
        folder.write(side + "/sol.cu", "#include \"only_" + side + ".h\"\n" + naive);
    }
    // No GPU visible: both sides are compiled, then the run stops, saying so (exit 6).
    const auto run = run_captured({"env", "CUDA_VISIBLE_DEVICES=", judge_program, "compare", folder.at("old/sol.cu"),
                                   folder.at("new/sol.cu"), "--cache-dir", folder.at("cache"), "--no-history"});
    CAPTURE(run.output);
    CHECK(run.exit_code == 6);
    CHECK_FALSE(contains(run.output, "nvcc failed"));
    CHECK_FALSE(contains(run.output, "only_new.h"));
    const auto found = run.output.find("solve() found");
    CHECK((found != std::string::npos && run.output.find("solve() found", found + 1) != std::string::npos));
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

TEST_CASE("the leaderboard and the history keep each problem apart, and --problem picks one (a case's suite too)") {
    TempFolder folder;
    const auto db = folder.at("h.sqlite");
    {
        History h = History::open(db);
        h.record(ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.16, 0.004));
        Attempt other = ranked_attempt("/k/naive.cu", "NVIDIA H200", 0.50, 0.004);
        other.problem = "tensara/matmul-3d";
        h.record(other);
    }
    const auto boards = run_captured({judge_program, "leaderboard", "--history", db});
    CAPTURE(boards.output);
    CHECK(boards.exit_code == 0);
    const std::string text = unwrapped(boards.output);
    const auto seed = text.find("leaderboard on NVIDIA H200, problem leetgpu/2-matrix-multiplication"),
               other = text.find("leaderboard on NVIDIA H200, problem tensara/matmul-3d");
    REQUIRE(seed != std::string::npos);
    REQUIRE(other != std::string::npos);
    REQUIRE(seed < other);
    CHECK(text.substr(seed, other - seed).find("naive.cu") == std::string::npos); // not on the seed's board
    CHECK(text.substr(other).find("naive.cu") != std::string::npos);
    CHECK(text.substr(other).find("tiled.cu") == std::string::npos);

    const auto one = run_captured({judge_program, "leaderboard", "--problem", "tensara/matmul-3d", "--history", db});
    CHECK(one.exit_code == 0);
    CHECK_FALSE(contains(unwrapped(one.output), "problem leetgpu/2-matrix-multiplication"));
    CHECK(contains(one.output, "naive.cu"));

    const auto listed = run_captured({judge_program, "history", "--history", db});
    CAPTURE(listed.output);
    CHECK(listed.exit_code == 0);
    const auto seed_heading = listed.output.find("problem leetgpu/2-matrix-multiplication:"),
               other_heading = listed.output.find("problem tensara/matmul-3d:");
    REQUIRE(seed_heading != std::string::npos);
    REQUIRE(other_heading != std::string::npos);
    CHECK(listed.output.find("naive.cu") > other_heading);
    CHECK(listed.output.find("tiled.cu") < other_heading);

    const auto filtered = run_captured({judge_program, "history", "--problem", "tensara/matmul-3d", "--history", db});
    CAPTURE(filtered.output);
    CHECK(filtered.exit_code == 0);
    CHECK(contains(filtered.output, "naive.cu"));
    CHECK_FALSE(contains(filtered.output, "tiled.cu"));

    const auto case_mistyped =
        run_captured({judge_program, "case", "new", "secret/x", "--problem", "tensara/matmul-3", "--shape", "1x2x3x4"});
    CHECK(case_mistyped.exit_code == 64);
    CHECK(contains(unwrapped(case_mistyped.output), "did you mean tensara/matmul-3d?"));
    const auto imported = run_captured({judge_program, "--problem", "tensara/matmul-3d", "case", "import", "secret/x",
                                        folder.write("x.in", "1 1 1\n1\n1\n")});
    CHECK(imported.exit_code == 64);
    CHECK(contains(unwrapped(imported.output), "use case new --problem for tensara/matmul-3d"));
    const auto mistyped =
        run_captured({judge_program, "leaderboard", "--problem", "tensara/matmul-3", "--history", db});
    CHECK(mistyped.exit_code == 64);
    CHECK(contains(unwrapped(mistyped.output), "tensara/matmul-3d"));
}

TEST_CASE("rounds repeat until every shape is steady, at least twice, and stop when the budget is spent") {
    const SpreadRule rule(0.01, 3600);
    CHECK(rule.wants_more({0, 0, 0.0}));
    CHECK(rule.wants_more({1, 0, 0.0}));
    CHECK_FALSE(rule.wants_more({2, 10, 0.005}));
    CHECK(rule.wants_more({2, 10, 0.02}));
    CHECK_FALSE(rule.wants_more({2, 3600, 0.02}));
    CHECK(rule.budget_spent({2, 3600, 0.02}));
    CHECK(rule.parameters() ==
          std::vector<RuleParameter>{{"spread_target", 0.01}, {"budget_s", 3600}, {"min_rounds", 2}});
    PooledTiming pooled;
    TimedRun round;
    round.samples_ms = {1.0, 1.0, 1.0, 1.0};
    round.raw_samples_ms = {1.5, 1.5, 1.5, 1.5};
    round.empty_call = EmptyCall{0.5, 0.01, 15, true};
    round.stats.median_ms = 1.0;
    pooled.add(round);
    round.samples_ms = {2.0, 2.0, 2.0, 2.0};
    round.raw_samples_ms = {2.375, 2.375, 2.375, 2.375};
    round.empty_call = EmptyCall{0.375, 0.01, 7, false};
    round.stats.median_ms = 2.0;
    pooled.add(round);
    CHECK(pooled.timed_run().stats.samples == 8);
    CHECK(pooled.timed_run().raw_samples_ms.size() == 8);
    CHECK(pooled.timed_run().empty_call.median_ms == 0.5); // the largest round's, reported
    CHECK_FALSE(pooled.timed_run().empty_call.solution_process_excess_ms);
    CHECK(pooled.rounds_ms == Rounds{{1.0, 1.0, 1.0, 1.0}, {2.0, 2.0, 2.0, 2.0}});
    CHECK(pooled.spread() == doctest::Approx(2.0 / 3.0 * 1.5).epsilon(0.5)); // two clusters: a wide spread
}

TEST_CASE("of the rounds' moves of the path into the solution's process, the pooled run keeps the widest") {
    PooledTiming pooled;
    TimedRun round;
    round.samples_ms = {0.2, 0.2};
    round.raw_samples_ms = {0.5, 0.5};
    round.empty_call = EmptyCall{0.3, 0.001, 12, true};
    round.empty_call.solution_process_excess_ms = -0.004;
    pooled.add(round);
    round.empty_call = EmptyCall{0.31, 0.001, 12, true}; // the larger offset, reported
    round.empty_call.solution_process_excess_ms = 0.001;
    pooled.add(round);
    round.empty_call = EmptyCall{0.305, 0.001, 12, true};
    round.empty_call.solution_process_excess_ms.reset(); // a round that made none
    pooled.add(round);
    const EmptyCall e = pooled.timed_run().empty_call;
    CHECK(e.median_ms == 0.31);
    REQUIRE(e.solution_process_excess_ms);
    CHECK(*e.solution_process_excess_ms == -0.004);
}

TEST_CASE("a pooled run's own events are summarized as its clock is: every round's calls pooled") {
    // Two rounds of unequal length in two clusters (a power-capped clock): the pooled median
    // of the clock lies in the larger cluster, and so must the events', not between them.
    PooledTiming pooled;
    TimedRun round;
    round.samples_ms = {9.0, 9.0, 9.1};
    round.own_events_samples_ms = {8.9, 8.9, 9.0};
    round.own_events_ms = 8.9;
    pooled.add(round);
    round.samples_ms = {9.6, 9.6, 9.7, 9.7, 9.7};
    round.own_events_samples_ms = {9.5, 9.5, 9.6, 9.6, 9.6};
    round.own_events_ms = 9.6;
    pooled.add(round);
    const TimedRun run = pooled.timed_run();
    CHECK(run.stats.median_ms == doctest::Approx(9.6));
    REQUIRE(run.own_events_ms);
    CHECK(*run.own_events_ms == doctest::Approx(9.5)); // the median of the rounds' medians would say 9.25
    CHECK(run.own_events_samples_ms.size() == 8);

    SUBCASE("a round without its calls' events leaves no figure to compare") {
        round.own_events_samples_ms.clear();
        round.own_events_ms.reset();
        pooled.add(round);
        const TimedRun partial = pooled.timed_run();
        CHECK_FALSE(partial.own_events_ms);
        CHECK(partial.own_events_samples_ms.empty());
    }
}

TEST_CASE("the rounds loop times every case in turn, repeats while one is noisy, and stops at a failure") {
    std::vector<TestCase> cases(3);
    for (std::size_t i = 0; i < cases.size(); ++i) cases[i].name = "rank/0" + std::to_string(i);
    const Progress progress;
    std::vector<std::size_t> order;
    // Case 1 stays noisy for three rounds, then settles.
    int calls_of_1 = 0;
    const RoundsRun steady = run_rounds(cases, SpreadRule(0.01, 3600), progress, "test", [&](std::size_t i) {
        order.push_back(i);
        return std::optional<double>(i == 1 && ++calls_of_1 <= 3 ? 0.05 : 0.001);
    });
    CHECK(steady.rounds == 4);
    CHECK(steady.worst_spread == doctest::Approx(0.001));
    CHECK_FALSE(steady.failed_case);
    CHECK(order == std::vector<std::size_t>{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2});

    const RoundsRun failed = run_rounds(cases, SpreadRule(0.01, 3600), progress, "test", [&](std::size_t i) {
        return i == 2 ? std::nullopt : std::optional<double>(0.001);
    });
    CHECK(failed.rounds == 1);
    CHECK(failed.failed_case == std::optional<std::size_t>(2));
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

TEST_CASE("a judge run recorded into a history whose first 100 bytes were overwritten: kept aside, run recorded") {
    TempFolder folder;
    const auto db = folder.at("h.sqlite");
    History::open(db).record(ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.16, 0.004));
    overwrite_first_100_bytes(db);
    const std::string damaged = bytes_of(db);

    const auto solution = folder.write("tiled.cu", "// a solution\n");
    HistoryReporter reporter(db, "judge", "test"); // finds the damage before the run
    REQUIRE(damaged_copies(folder, "h.sqlite").size() == 1);
    reporter.run_finished(run_on_h200(solution),
                          {judged_case("sample/01-one-by-one", 1, 0.01, std::nullopt),
                           judged_case("perf/01-cube-4096", 4096, 17.0, 2.72)},
                          0);
    const auto kept = damaged_copies(folder, "h.sqlite");
    REQUIRE(kept.size() == 1);
    CHECK(bytes_of(kept[0].string()) == damaged);
    const auto attempts = History::open(db).attempts();
    REQUIRE(attempts.size() == 1);
    CHECK(attempts[0].solution_name == "tiled.cu");
    CHECK(attempts[0].mode == "judge");
    // Its score is over the one case timed against cuBLAS, in rank's unit.
    CHECK(attempts[0].cublas_cases == 1);
    CHECK(*attempts[0].geomean_ratio_to_cublas == doctest::Approx(0.16));
    CHECK(*attempts[0].geomean_ms == doctest::Approx(17.0));
}

TEST_CASE("./judge history on a damaged history sets it aside in one line naming both files, and none yet is said") {
    TempFolder folder;
    const auto db = folder.at("h.sqlite");
    History::open(db).record(ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.16, 0.004));
    overwrite_first_100_bytes(db);
    const auto run = run_captured({judge_program, "history", "--history", db});
    CHECK(run.exit_code == 0);
    const auto kept = damaged_copies(folder, "h.sqlite");
    REQUIRE(kept.size() == 1);
    CHECK(contains(unwrapped(run.output), "judge: history " + db + " could not be read"));
    CHECK(contains(unwrapped(run.output), "it was kept as " + kept[0].string() + " and a new history was started"));
    CHECK(contains(run.output, "history: no attempt recorded in " + db));
    const auto leaderboard = run_captured({judge_program, "leaderboard", "--history", db});
    CHECK(leaderboard.exit_code == 0);
    CHECK(damaged_copies(folder, "h.sqlite").size() == 1);

    const auto none = run_captured({judge_program, "history", "--history", folder.at("none.sqlite")});
    CHECK(none.exit_code == 0);
    CHECK(contains(unwrapped(none.output), "no history yet: " + folder.at("none.sqlite") + " does not exist"));
    CHECK_FALSE(std::filesystem::exists(folder.at("none.sqlite"))); // reading creates nothing
}

TEST_CASE("--history naming another program's SQLite database is refused with exit 7, before judging, untouched") {
    TempFolder folder;
    const auto db = another_programs_database(folder);
    const std::string before = bytes_of(db);
    const auto listing = run_captured({judge_program, "history", "--history", db});
    CHECK(listing.exit_code == 7);
    CHECK(contains(listing.output, "history " + db + ": an SQLite database of something else"));
    CHECK(contains(listing.output, "the table(s) notes"));
    const auto judged = run_captured({judge_program, std::string(GEMM_SOURCE_DIR) + "/solutions/01-naive.cu",
                                      "--history", db, "--cache-dir", folder.at("cache")});
    CHECK(judged.exit_code == 7);
    CHECK(contains(judged.output, "judge: setup: history " + db));
    CHECK_FALSE(std::filesystem::exists(folder.at("cache"))); // refused before compiling
    CHECK(bytes_of(db) == before);
}

TEST_CASE("history's score column says what each score is over, and a judge run without cuBLAS cases has none") {
    TempFolder folder;
    const auto db = folder.at("h.sqlite");
    {
        History h = History::open(db);
        Attempt ranked = ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.160, 0.004);
        for (int i = 0; i < 9; ++i) ranked.cases.push_back({"rank/" + std::to_string(i), "AC", 1.0, 0.0, 0.16, {1.0}});
        h.record(ranked);
        Attempt judged = ranked_attempt("/k/tiled.cu", "NVIDIA H200", 0.158, 0.004);
        judged.mode = "judge";
        judged.noise_floor.reset();
        judged.cases = {{"sample/01-one-by-one", "AC", 0.01, 0.0, std::nullopt, {0.01}},
                        {"perf/01-cube-4096", "AC", 17.0, 0.0, 2.7, {17.0}},
                        {"perf/02-leetgpu", "AC", 50.9, 0.0, 8.1, {50.9}}};
        h.record(judged);
        Attempt old_style = judged; // an older judge's: a geometric-mean time over every case
        old_style.geomean_ratio_to_cublas.reset();
        old_style.geomean_ms = 0.0579;
        h.record(old_style);
    }
    const auto run = run_captured({judge_program, "history", "--history", db});
    CHECK(run.exit_code == 0);
    CHECK(contains(run.output, "score (vs cuBLAS)"));
    CHECK(contains(run.output, "0.160× over 9 ranked"));
    CHECK(contains(run.output, "0.158× over 2 timed"));
    CHECK_FALSE(contains(run.output, "0.0579"));
    CHECK(contains(run.output, "over the cases timed against cuBLAS"));
}

TEST_CASE("compare judges the clock's own times: one side's error in measuring the path's cost makes no difference") {
    TempFolder folder;
    // The same 1.7 ms calls; one side measured the path 25 µs cheaper (its times read 2% longer).
    const auto old_side = folder.write("old.json", rank_report_raw(5, 1.70, 0.44));
    const auto new_side = folder.write("new.json", rank_report_raw(6, 1.70, 0.415));
    const auto same = run_captured({judge_program, "compare", old_side, new_side});
    CHECK(same.exit_code == 0);
    CHECK(contains(same.output, "not significant"));
    CHECK(contains(same.output, "times: the clock's, compared as measured"));
    // A real 2% on the clock is still called, and shown against one offset for both (0.4275 ms).
    const auto faster = run_captured(
        {judge_program, "compare", old_side, folder.write("faster.json", rank_report_raw(7, 1.70 * 0.98, 0.415))});
    CHECK(contains(faster.output, "new is faster"));
    // (1.70 − 0.4275) / (1.666 − 0.4275) ≈ 1.027 (1.028 with the samples' noise), not the raw 1.020.
    CHECK((contains(faster.output, "1.027×") || contains(faster.output, "1.028×")));
}
