// What the user reads: rows, the summary line, durations and the JSON report.
#include <doctest/doctest.h>

#include "judge/report/report.hpp"

#include <cmath>
#include <string>
#include <vector>

using namespace gemm;

namespace {

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::string::size_type start = 0;
    for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n', start)) {
        lines.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    if (start < text.size()) lines.push_back(text.substr(start));
    return lines;
}

// Display columns of the text before byte `offset`: UTF-8 continuation bytes take none.
std::size_t column_of(const std::string &text, std::size_t offset) {
    std::size_t columns = 0;
    for (std::size_t i = 0; i < offset; ++i) columns += (static_cast<unsigned char>(text[i]) & 0xC0) != 0x80;
    return columns;
}

TimedRun timed(double median_ms) {
    TimedRun t;
    t.stats.samples = 10;
    t.stats.median_ms = t.stats.min_ms = t.stats.max_ms = t.stats.q1_ms = t.stats.q3_ms = median_ms;
    return t;
}

CaseResult accepted_cube() {
    CaseResult r;
    r.name = "perf/cube-1000";
    r.M = r.N = r.K = 1000;
    r.verdict = Verdict::AC;
    OutputCheck check;
    check.elementwise_ratio = 0.25;
    check.normwise_ratio = 0.5;
    r.check = check;
    r.timing = timed(10.0);  // 2·10^9 flops in 10 ms: 200 GFLOP/s
    r.baseline = timed(8.0); // cuBLAS 8 ms: the solution reaches 80 % of it
    return r;
}

CaseResult with_verdict(const std::string &name, Verdict v) {
    CaseResult r;
    r.name = name;
    r.M = r.N = r.K = 2;
    r.verdict = v;
    return r;
}

DeviceInfo h200() {
    DeviceInfo d;
    d.present = true;
    d.name = "NVIDIA H200";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.l2_bytes = 62914560; // 60 MiB
    d.memory_bytes = 150000000000LL;
    d.driver_version = "580.159.04";
    d.cuda_driver_version = 13000;
    d.cuda_runtime_version = 12080;
    d.sm_clock_mhz = 1755;
    d.sm_clock_max_mhz = 1980;
    return d;
}

RunContext run_context() {
    RunContext run;
    run.solution = "/somewhere/solutions/tiled.cu";
    run.arch = "sm_90";
    run.compile.ok = true;
    run.compile.seconds = 2.34;
    run.compile.library = "/cache/abc.so";
    run.compile.command = "nvcc -arch=sm_90 tiled.cu";
    run.device = h200();
    run.time_budget_s = 0.3;
    return run;
}

} // namespace

TEST_CASE("an accepted row shows name, shape, verdict, error ratio, time, GFLOP/s and the cuBLAS share") {
    const auto row = format_row(accepted_cube(), false);
    const auto lines = lines_of(row);
    REQUIRE(lines.size() == 1);
    CHECK(contains(row, "perf/cube-1000"));
    CHECK(contains(row, "1000×1000×1000"));
    CHECK(contains(row, " AC "));
    CHECK(contains(row, "0.50")); // the larger of the two ratios
    CHECK(contains(row, "10 ms"));
    CHECK(contains(row, "200.0"));
    CHECK(contains(row, "80%"));
    CHECK(row.back() == '\n');
}

TEST_CASE("an accepted row without a baseline has no percentage") {
    auto r = accepted_cube();
    r.baseline.reset();
    const auto row = format_row(r, false);
    CHECK(contains(row, "200.0"));
    CHECK_FALSE(contains(row, "%"));
}

TEST_CASE("a solution faster than cuBLAS shows more than 100 percent") {
    auto r = accepted_cube();
    r.baseline = timed(15.0);
    CHECK(contains(format_row(r, false), "150%"));
}

TEST_CASE("a row without a check shows a dash for the error ratio and no timing") {
    auto r = with_verdict("sample/x", Verdict::AC);
    const auto row = format_row(r, false);
    CHECK(contains(row, " - "));
    CHECK_FALSE(contains(row, "ms"));
    CHECK_FALSE(contains(row, "%"));
}

TEST_CASE("an infinite error ratio is shown as inf") {
    auto r = with_verdict("sample/x", Verdict::WA);
    OutputCheck c;
    c.elementwise_ratio = INFINITY;
    r.check = c;
    r.detail = "bad";
    CHECK(contains(format_row(r, false), "inf"));
}

TEST_CASE("a wrong-answer row has a second, indented line with the detail") {
    auto r = with_verdict("secret/04-primes", Verdict::WA);
    r.detail = "1 of 4 elements outside the FP32 error bound; first at row 0, col 1";
    const auto lines = lines_of(format_row(r, false));
    REQUIRE(lines.size() == 2);
    CHECK(contains(lines[0], "secret/04-primes"));
    CHECK(contains(lines[0], "WA"));
    CHECK(lines[1] == "      " + r.detail);
}

TEST_CASE("the solution's output is shown indented only when asked for") {
    auto r = with_verdict("sample/x", Verdict::RE);
    r.detail = "crashed";
    r.output_tail = "first line\nsecond line\n";
    const auto shown = lines_of(format_row(r, true));
    REQUIRE(shown.size() == 4);
    CHECK(shown[2] == "      | first line");
    CHECK(shown[3] == "      | second line");
    const auto hidden = format_row(r, false);
    CHECK_FALSE(contains(hidden, "first line"));
    CHECK(contains(hidden, "--show-output"));
    auto ok = accepted_cube();
    ok.output_tail = "chatter\n";
    CHECK(lines_of(format_row(ok, false)).size() == 1);
}

TEST_CASE("only the last 20 lines of the solution's output are shown") {
    auto r = with_verdict("sample/x", Verdict::AC);
    for (int i = 1; i <= 25; ++i) r.output_tail += "line " + std::to_string(i) + "\n";
    const auto lines = lines_of(format_row(r, true));
    REQUIRE(lines.size() == 21);
    CHECK(lines[1] == "      | line 6");
    CHECK(lines[20] == "      | line 25");
}

TEST_CASE("the verdict column lines up with its title though × takes two bytes") {
    const auto titles = format_column_titles();
    const auto row = format_row(accepted_cube(), false);
    CHECK(column_of(titles, titles.find("verdict")) == 50);
    CHECK(column_of(row, row.find("AC")) == 50);
    CHECK(column_of(titles, titles.find("GFLOP/s")) == column_of(row, row.find("200.0")));
}

TEST_CASE("the summary counts verdicts and ends with the exit status") {
    std::vector<CaseResult> results;
    for (int i = 0; i < 22; ++i) results.push_back(with_verdict("c" + std::to_string(i), Verdict::AC));
    results.push_back(with_verdict("w", Verdict::WA));
    results.push_back(with_verdict("t", Verdict::TLE));
    const auto text = format_summary(results, 2);
    CHECK(text.rfind("22/24 AC, 1 WA, 1 TLE ", 0) == 0);
    CHECK(text == "22/24 AC, 1 WA, 1 TLE" + std::string(39, ' ') + "exit 2\n");
}

TEST_CASE("the summary lists only verdicts that occurred, worst last") {
    std::vector<CaseResult> results{with_verdict("a", Verdict::JE), with_verdict("b", Verdict::RE),
                                    with_verdict("c", Verdict::RE), with_verdict("d", Verdict::CE)};
    const auto text = format_summary(results, 5);
    CHECK(text.rfind("0/4 AC, 2 RE, 1 CE, 1 JE ", 0) == 0);
    CHECK_FALSE(contains(text, "WA"));
    CHECK_FALSE(contains(text, "TLE"));
    CHECK(text.size() >= 7);
    CHECK(text.substr(text.size() - 7) == "exit 5\n");
}

TEST_CASE("an all-accepted summary has no other counts") {
    std::vector<CaseResult> results{with_verdict("a", Verdict::AC), with_verdict("b", Verdict::AC)};
    const auto text = format_summary(results, 0);
    CHECK(text.rfind("2/2 AC ", 0) == 0);
    CHECK_FALSE(contains(text, ","));
    CHECK(contains(text, "exit 0"));
}

TEST_CASE("worst_verdict picks the worst in the order AC WA TLE RE CE JE") {
    CHECK(worst_verdict({}) == Verdict::AC);
    CHECK(worst_verdict({with_verdict("a", Verdict::AC)}) == Verdict::AC);
    CHECK(worst_verdict({with_verdict("a", Verdict::AC), with_verdict("b", Verdict::TLE),
                         with_verdict("c", Verdict::WA)}) == Verdict::TLE);
    CHECK(worst_verdict({with_verdict("a", Verdict::RE), with_verdict("b", Verdict::JE),
                         with_verdict("c", Verdict::CE)}) == Verdict::JE);
    CHECK(worst_verdict({with_verdict("a", Verdict::CE), with_verdict("b", Verdict::RE)}) == Verdict::CE);
}

TEST_CASE("verdicts map to their names and exit statuses") {
    CHECK(std::string(verdict_name(Verdict::TLE)) == "TLE");
    CHECK(parse_verdict("RE") == Verdict::RE);
    CHECK_FALSE(parse_verdict("ac").has_value());
    CHECK(exit_status_for(Verdict::AC) == 0);
    CHECK(exit_status_for(Verdict::WA) == 1);
    CHECK(exit_status_for(Verdict::TLE) == 2);
    CHECK(exit_status_for(Verdict::RE) == 3);
    CHECK(exit_status_for(Verdict::CE) == 4);
    CHECK(exit_status_for(Verdict::JE) == 5);
}

TEST_CASE("error_over_bound is the larger ratio, or negative when unchecked") {
    CHECK(error_over_bound(accepted_cube()) == 0.5);
    auto r = accepted_cube();
    r.check->elementwise_ratio = 0.9;
    CHECK(error_over_bound(r) == 0.9);
    CHECK(error_over_bound(with_verdict("x", Verdict::RE)) < 0);
}

TEST_CASE("durations keep three significant digits and switch to seconds at one second") {
    CHECK(format_duration_ms(0.011) == "0.011 ms");
    CHECK(format_duration_ms(0.5) == "0.500 ms");
    CHECK(format_duration_ms(1.0) == "1 ms");
    CHECK(format_duration_ms(1.234) == "1.23 ms");
    CHECK(format_duration_ms(50.3) == "50.3 ms");
    CHECK(format_duration_ms(123.4) == "123 ms");
    CHECK(format_duration_ms(1250.0) == "1.25 s");
    CHECK(format_duration_ms(12345.0) == "12.3 s");
}

TEST_CASE("the device line names GPU, architecture, SMs, L2, driver, CUDA and clocks") {
    CHECK(format_device(h200()) ==
          "NVIDIA H200, sm_90, 132 SMs, 60 MB L2, driver 580.159.04, CUDA 12.8, SM clock 1755/1980 MHz");
    DeviceInfo bare = h200();
    bare.driver_version.clear();
    bare.sm_clock_max_mhz = 0;
    CHECK(format_device(bare) == "NVIDIA H200, sm_90, 132 SMs, 60 MB L2, CUDA 12.8");
}

TEST_CASE("the header names the solution file, target, GPU and compile time") {
    const auto run = run_context();
    const auto header = format_header(run);
    CHECK(header.rfind("tiled.cu  compiled for sm_90 (NVIDIA H200) in 2.3 s\nGPU: NVIDIA H200, sm_90", 0) == 0);
    auto cached = run;
    cached.compile.cached = true;
    cached.arch.clear();
    const auto cached_header = format_header(cached);
    CHECK(contains(cached_header, "compiled for nvcc's default target"));
    CHECK(contains(cached_header, "(cached build)"));
    CHECK_FALSE(contains(cached_header, "2.3 s"));
}

TEST_CASE("the JSON report carries cases, summary, device and the cuBLAS fraction") {
    const auto run = run_context();
    auto wa = with_verdict("secret/x", Verdict::WA);
    wa.detail = "wrong";
    const std::vector<CaseResult> results{accepted_cube(), wa};
    const auto j = report_json(run, results, 1);

    CHECK(j.at("solution") == "/somewhere/solutions/tiled.cu");
    CHECK(j.at("compile").at("arch") == "sm_90");
    CHECK(j.at("compile").at("cached") == false);
    CHECK(j.at("compile").at("seconds").get<double>() == 2.34);
    CHECK(j.at("compile").at("library") == "/cache/abc.so");
    CHECK(j.at("time_budget_s").get<double>() == 0.3);
    CHECK(j.at("judge_seconds").at("compile").get<double>() == 0);
    CHECK(j.at("bounds").at("unit_roundoff").get<double>() == 0x1p-24);

    const auto &device = j.at("device");
    CHECK(device.at("name") == "NVIDIA H200");
    CHECK(device.at("compute_capability") == "sm_90");
    CHECK(device.at("sm_count") == 132);
    CHECK(device.at("driver_version") == "580.159.04");

    const auto &cases = j.at("cases");
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].at("name") == "perf/cube-1000");
    CHECK(cases[0].at("verdict") == "AC");
    CHECK(cases[0].at("gflops").get<double>() == doctest::Approx(200.0));
    CHECK(cases[0].at("fraction_of_cublas").get<double>() == doctest::Approx(0.8));
    CHECK(cases[0].at("error_over_bound").get<double>() == 0.5);
    CHECK(cases[0].at("timing").at("median_ms").get<double>() == 10.0);
    CHECK(cases[0].at("baseline_cublas").at("median_ms").get<double>() == 8.0);
    CHECK(cases[1].at("verdict") == "WA");
    CHECK(cases[1].at("detail") == "wrong");
    CHECK_FALSE(cases[1].contains("fraction_of_cublas"));
    CHECK_FALSE(cases[1].contains("gflops"));
    CHECK(cases[1].at("error_over_bound").get<double>() < 0);

    const auto &summary = j.at("summary");
    CHECK(summary.at("counts").at("AC") == 1);
    CHECK(summary.at("counts").at("WA") == 1);
    CHECK_FALSE(summary.at("counts").contains("TLE"));
    CHECK(summary.at("worst") == "WA");
    CHECK(summary.at("exit_status") == 1);
}

TEST_CASE("a JSON report with timing but no baseline has gflops and no cuBLAS fraction") {
    auto r = accepted_cube();
    r.baseline.reset();
    const auto j = report_json(run_context(), {r}, 0);
    CHECK(j.at("cases")[0].contains("gflops"));
    CHECK_FALSE(j.at("cases")[0].contains("fraction_of_cublas"));
    CHECK(j.at("cases")[0].at("baseline_cublas").is_null());
    CHECK(j.at("summary").at("worst") == "AC");
}

TEST_CASE("the verification line adds up every case's verified calls") {
    std::vector<CaseResult> results{with_verdict("a", Verdict::AC), with_verdict("b", Verdict::AC)};
    CHECK(format_verification(results).empty()); // nothing ran
    results[0].verification = Verification{20, 1, 19, 2, 1024};
    results[1].verification = Verification{1, 1, 0, 0, 0};
    CHECK(format_verification(results) == "verified: every call of solve(), 21 calls: 2 against the full FP64 "
                                           "reference, 19 by 2 Freivalds projections and 1024 sampled elements each\n");
}

TEST_CASE("the judge's own time: each part in seconds, the rest what no part names, a wait for the GPU only when there was one") {
    RunTimeline t;
    CHECK(format_timeline(t).empty());
    t.probe_s = 0.25;
    t.compile_s = 1.25;
    t.waited_for_referee_s = 0.5;
    t.runner_start_s = 0.2;
    t.cases = 47;
    t.cases_s = 6.5;
    t.total_s = 9.0;
    CHECK(format_timeline(t) == "judge: 9.00 s in all: GPU probe 0.25 s, compile 1.25 s, waiting for the referee's "
                                "empty calls 0.50 s, the solution's process 0.20 s, 47 case run(s) 6.50 s, the rest "
                                "0.30 s\n");
    RunContext run;
    run.timeline = t;
    const auto j = report_json(run, {}, 0).at("judge_seconds");
    CHECK(j.at("probe").get<double>() == 0.25);
    CHECK(j.at("cases").get<double>() == 6.5);
    CHECK(j.at("total").get<double>() == 9.0);
    CHECK(j.at("waited_for_gpu").get<double>() == 0.0);
    // A wait for another judge's turn on the GPU is named first, and only when there was one.
    t.waited_for_gpu_s = 2.0;
    t.total_s = 11.0;
    CHECK(format_timeline(t) == "judge: 11.00 s in all: waiting for another judge's turn on the GPU 2.00 s, GPU probe "
                                "0.25 s, compile 1.25 s, waiting for the referee's empty calls 0.50 s, the solution's "
                                "process 0.20 s, 47 case run(s) 6.50 s, the rest 0.30 s\n");
}

TEST_CASE("the clock line names how far the stand-ins in the solution's process moved, and the cross-check counts it") {
    std::vector<CaseResult> results(2);
    for (std::size_t i = 0; i < results.size(); ++i) {
        TimedRun run;
        run.stats.samples = 10;
        run.stats.median_ms = 0.1850;
        run.own_events_ms = 0.1830;
        run.empty_call.median_ms = 0.336;
        run.empty_call.spread_ms = 0.001;
        run.empty_call.interleaved = true;
        run.empty_call.solution_process_excess_ms = i == 0 ? -0.0070 : 0.0015;
        results[i].name = "rank/0" + std::to_string(i);
        results[i].timing = run;
    }
    const std::string text = format_clock(results);
    CAPTURE(text);
    CHECK(text.find("for 2 of the solution's runs the same stand-ins were made in its own process too, and cost "
                    "-7.0 … +1.5 µs more there") != std::string::npos);
    // 2 µs off: past 1% (1.83 µs) and the spread (1 µs) alone, within the spread and the 1.5 µs move.
    CHECK(text.find("agree with the clock (within 1% or the offset's spread) in 2 of 2") != std::string::npos);
}
