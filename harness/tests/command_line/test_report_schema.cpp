// Every kind of --json report validates against the public schema (docs/report.schema.json),
// checked by scripts/check-report, the same script the GPU machine runs on every report its
// runs wrote; and a report that breaks the schema is caught, so the check can fail.
#include <doctest/doctest.h>

#include "command_line/reporters/console_reporter.hpp"
#include "command_line/reporters/json_reporter.hpp"
#include "command_line/reporters/junit_reporter.hpp"
#include "command_line/reporters/reporter_set.hpp"
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>

using namespace gemm;
using gemm::test::TempFolder;

namespace {

TimedRun schema_timing(double median_ms) {
    TimedRun t;
    t.stats = {5, median_ms, median_ms * 0.9, median_ms * 1.5, median_ms * 0.95, median_ms * 1.05};
    t.samples_ms = {median_ms, median_ms * 0.9, median_ms * 1.5, median_ms * 0.95, median_ms * 1.05};
    t.raw_samples_ms = t.samples_ms;
    t.empty_call.median_ms = 0.01;
    t.empty_call.samples = 20;
    t.empty_call.calibrations = {{"copy", 0.011, 0.001, 8, false}};
    t.own_events_ms = median_ms;
    t.own_events_samples_ms = t.samples_ms;
    t.sm_clock_mhz = 1980;
    return t;
}

RunContext schema_run(bool gpu) {
    RunContext run;
    run.solution = "solutions/caf\xe9.cu"; // not UTF-8: the report must still be valid
    run.arch = "sm_90";
    run.compile.ok = true;
    run.compile.library = "/cache/x.so";
    run.device.present = gpu;
    run.device.name = gpu ? "NVIDIA H200" : "";
    run.device.cc_major = 9;
    run.time_budget_s = 0.3;
    return run;
}

std::vector<CaseResult> every_verdict() {
    CaseResult ac;
    ac.name = "perf/cube";
    ac.M = ac.N = ac.K = 1024;
    ac.verdict = Verdict::AC;
    ac.check = OutputCheck{};
    ac.timing = schema_timing(0.2);
    ac.baseline = schema_timing(0.15);
    CaseResult wa = ac;
    wa.name = "secret/<script>";
    wa.verdict = Verdict::WA;
    wa.timing.reset();
    wa.baseline.reset();
    wa.check->normwise_ratio = INFINITY;
    wa.check->map = "X..\n..?";
    wa.check->first_out_of_bound = BadElement{0, 0, 1.0, NAN, 2e-6};
    CaseResult re = wa;
    re.name = "secret/re";
    re.verdict = Verdict::RE;
    re.check.reset();
    re.runner_lost = true;
    re.output_tail = "\xff\xfe";
    return {ac, wa, re};
}

RankSummary rank_summary(const std::vector<CaseResult> &results) {
    RankSummary rank;
    rank.solution = "solutions/tiled.cu";
    rank.gpu = "NVIDIA H200";
    rank.rows = {{results[0], {3, 2}}};
    rank.score.shapes = 1;
    rank.score.geomean_ms = 0.2;
    rank.score.geomean_ratio_to_cublas = 0.75;
    rank.noise = {0.75, 0.74, 0.76, 0.99};
    rank.rounds = 2;
    return rank;
}

CompareSummary compare_summary() {
    CompareSummary compare;
    compare.old_name = "a.cu";
    compare.new_name = "b.cu";
    compare.live = true;
    ComparedShape shape;
    shape.name = "perf/cube";
    shape.shape = {1024, 1024, 1024};
    shape.old_ms = 0.2;
    shape.new_ms = 0.1;
    shape.p_value = 0.001;
    shape.speedup = {2.0, 1.9, 2.1, 0.99};
    shape.significant = true;
    shape.old_side = {{{0.2, 0.21}}, {{0.21, 0.22}}, {0.01}};
    shape.new_side = shape.old_side;
    compare.shapes = {shape};
    return compare;
}

// Writes one report through JsonReporter: `tell` says what the run found.
template <typename Tell> void write_report(const std::string &path, const RunContext &run,
                                           const std::vector<CaseResult> &results, int status, Tell tell) {
    JsonReporter json(path);
    tell(json);
    json.run_finished(run, results, status);
}

CapturedRun check_reports(const std::string &folder) {
    return run_captured({"python3", std::string(GEMM_SOURCE_DIR) + "/scripts/check-report", "--at-least", "2", folder});
}

} // namespace

TEST_CASE("every kind of --json report validates against docs/report.schema.json") {
    // scripts/test installs the validator; a machine without apt (the GPU machine) has the
    // reports its runs wrote checked where it is (scripts/gpu-check's artifacts).
    if (run_captured({"python3", "-c", "import jsonschema"}).exit_code != 0) {
        std::printf("[skipped: no jsonschema]\n");
        return;
    }
    TempFolder folder;
    const auto results = every_verdict();
    write_report(folder.at("judge.json"), schema_run(true), results, 1, [&](Reporter &r) {
        r.shrunk(
            {"secret/<script>", {{1, 17, 1}, 12, {"N = 16 passes"}}, "N = 16 passes", "./judge x.cu --shape 1x17x1"});
        r.cases_not_run({{"perf/big"}, "stopped after 3 cases ended in RE or TLE"});
    });
    write_report(folder.at("no-gpu.json"), schema_run(false), {}, 6, [](Reporter &r) {
        r.no_gpu({"no NVIDIA driver is loaded", "x.cu", "sm_90", true, ""});
    });
    write_report(folder.at("compile-error.json"), schema_run(true), {}, 4, [](Reporter &) {});
    write_report(folder.at("stress.json"), schema_run(true), {results[1]}, 1, [](Reporter &r) {
        r.stressed({7, 200, std::string("stress/7"), 256, 1});
    });
    write_report(folder.at("rank.json"), schema_run(true), {results[0]}, 0, [&](Reporter &r) {
        r.ranked(rank_summary(results));
        KernelProfile p{"gemm_kernel", 1, 0.2, 2e9, 30, 80, 50, 128, 49152};
        r.profiled({"perf/cube", {1024, 1024, 1024}, p, 0.21});
    });
    write_report(folder.at("compare.json"), schema_run(true), {}, 0,
                 [](Reporter &r) { r.compared(compare_summary()); });
    write_report(folder.at("history.json"), schema_run(true), {}, 0, [](Reporter &r) {
        Attempt a;
        a.id = 3;
        a.time_utc = "2026-12-02T10:00:00Z";
        a.solution_name = "tiled.cu";
        a.solution_path = "/x/tiled.cu";
        a.geomean_ratio_to_cublas = 0.5;
        r.history_listed({"", {{a, ScoreChange{0.1, true}, std::nullopt}}});
        a.problem = "tensara/matmul-3d";
        r.leaderboards_listed({{{"NVIDIA H200", "tensara/matmul-3d", {a}}}});
    });
    const auto valid = check_reports(folder.path.string());
    CAPTURE(valid.output);
    CHECK(valid.exit_code == 0);
    CHECK(valid.output.find("7 report(s), 0 invalid") != std::string::npos);

    // A verdict the schema does not know, in a copy: the check fails and names the place.
    TempFolder broken;
    std::ifstream in(folder.at("judge.json"));
    auto report = nlohmann::json::parse(in);
    report["cases"][0]["verdict"] = "PASSED";
    report["bounds"].erase("normwise");
    std::ofstream(broken.at("judge.json")) << report.dump();
    std::ofstream(broken.at("no-gpu.json")) << nlohmann::json::parse(std::ifstream(folder.at("no-gpu.json"))).dump();
    const auto invalid = check_reports(broken.path.string());
    CAPTURE(invalid.output);
    CHECK(invalid.exit_code == 1);
    CHECK(invalid.output.find("cases/0/verdict") != std::string::npos);
    CHECK(invalid.output.find("'normwise' is a required property") != std::string::npos);
}
