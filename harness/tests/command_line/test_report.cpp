// What the user reads: rows, the summary line, durations and the JSON report.
#include <doctest/doctest.h>

#include "command_line/reporters/console_text.hpp"
#include "command_line/reporters/json_reporter.hpp"
#include "common/terminal_text.hpp"
#include "measurement/time_resolution.hpp"

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

TEST_CASE("an accepted row shows name, shape, verdict, error ratio, time, TFLOP/s and the cuBLAS share") {
    const auto row = format_row(accepted_cube(), ConsoleLayout(), false);
    const auto lines = lines_of(row);
    REQUIRE(lines.size() == 1);
    CHECK(contains(row, "perf/cube-1000"));
    CHECK(contains(row, "1000×1000×1000"));
    CHECK(contains(row, " AC "));
    CHECK(contains(row, "0.50")); // the larger of the two ratios
    CHECK(contains(row, "10.0 ms"));
    CHECK(contains(row, "0.200")); // 2·10^9 flops in 10 ms
    CHECK(contains(row, "80%"));
    CHECK(row.back() == '\n');
}

TEST_CASE("a rate under a thousandth of a TFLOP/s is left out") {
    auto r = with_verdict("sample/02-small-explicit", Verdict::AC);
    r.timing = timed(0.3); // 2·2·2·2 flops in 0.3 ms
    const auto row = format_row(r, ConsoleLayout(), false);
    CHECK(contains(row, "0.30 ± 0.01 ms"));
    CHECK(row.substr(row.find(" ms") + 3).find_first_not_of(" \n") == std::string::npos);
}

TEST_CASE("an accepted row without a baseline has no percentage") {
    auto r = accepted_cube();
    r.baseline.reset();
    const auto row = format_row(r, ConsoleLayout(), false);
    CHECK(contains(row, "0.200"));
    CHECK_FALSE(contains(row, "%"));
}

TEST_CASE("a solution faster than cuBLAS shows more than 100 percent") {
    auto r = accepted_cube();
    r.baseline = timed(15.0);
    CHECK(contains(format_row(r, ConsoleLayout(), false), "150%"));
}

TEST_CASE("a row without a check or a timing leaves those columns empty") {
    auto r = with_verdict("sample/x", Verdict::AC);
    const auto row = format_row(r, ConsoleLayout(), false);
    CHECK(row == "sample/x" + std::string(20, ' ') + "2×2×2" + std::string(11, ' ') + "AC\n");
}

TEST_CASE("an infinite error ratio is shown as inf") {
    auto r = with_verdict("sample/x", Verdict::WA);
    OutputCheck c;
    c.elementwise_ratio = INFINITY;
    r.check = c;
    r.detail = "bad";
    CHECK(contains(format_row(r, ConsoleLayout(), false), "inf"));
}

TEST_CASE("a wrong-answer row has a second, indented line with the detail") {
    auto r = with_verdict("secret/04-primes", Verdict::WA);
    r.detail = "1 of 4 elements outside the FP32 error bound; first at row 0, col 1";
    const auto lines = lines_of(format_row(r, ConsoleLayout(), false));
    REQUIRE(lines.size() == 2);
    CHECK(contains(lines[0], "secret/04-primes"));
    CHECK(contains(lines[0], "WA"));
    CHECK(lines[1] == "      " + r.detail);
}

TEST_CASE("a long detail is wrapped to 100 columns at spaces, a word longer than a line kept whole") {
    auto r = with_verdict("secret/04-primes", Verdict::RE);
    for (int i = 0; i < 40; ++i) r.detail += "tried to signal process " + std::to_string(1000 + i) + " (blocked); ";
    r.detail += std::string(300, 'x');
    const auto lines = lines_of(format_row(r, ConsoleLayout(), false));
    CHECK(lines.size() > 10);
    for (const auto &line : lines) {
        CAPTURE(line);
        CHECK((display_width(line) <= console_width || line == "      " + std::string(300, 'x')));
    }
}

TEST_CASE("the solution's output is shown indented only when asked for") {
    auto r = with_verdict("sample/x", Verdict::RE);
    r.detail = "crashed";
    r.output_tail = "first line\nsecond line\n";
    const auto shown = lines_of(format_row(r, ConsoleLayout(), true));
    REQUIRE(shown.size() == 4);
    CHECK(shown[2] == "      | first line");
    CHECK(shown[3] == "      | second line");
    const auto hidden = format_row(r, ConsoleLayout(), false);
    CHECK_FALSE(contains(hidden, "first line"));
    CHECK(contains(hidden, "--show-output"));
    auto ok = accepted_cube();
    ok.output_tail = "chatter\n";
    CHECK(lines_of(format_row(ok, ConsoleLayout(), false)).size() == 1);
}

TEST_CASE("only the last 20 lines of the solution's output are shown") {
    auto r = with_verdict("sample/x", Verdict::AC);
    for (int i = 1; i <= 25; ++i) r.output_tail += "line " + std::to_string(i) + "\n";
    const auto lines = lines_of(format_row(r, ConsoleLayout(), true));
    REQUIRE(lines.size() == 21);
    CHECK(lines[1] == "      | line 6");
    CHECK(lines[20] == "      | line 25");
}

TEST_CASE("the columns line up with their titles though × takes two bytes, in at most 100 columns") {
    const ConsoleLayout layout({{"perf/cube-1000", 1000, 1000, 1000}, {"sample/01-one-by-one", 1, 1, 1}});
    const auto titles = format_column_titles(layout);
    const auto row = format_row(accepted_cube(), layout, false);
    CHECK(column_of(titles, titles.find("verdict")) == column_of(row, row.find("AC")));
    CHECK(column_of(titles, titles.find("TFLOP/s")) == column_of(row, row.find("0.200")));
    CHECK(column_of(titles, titles.find("time")) == column_of(row, row.find("10.0 ms")));
    CHECK(display_width(titles) <= console_width + 1);
    CHECK(display_width(row) <= console_width + 1);
}

TEST_CASE("the widest row of the suite's names and shapes fits in 100 columns, names cut apart") {
    const ConsoleLayout layout({{"secret/29-all-odd-aligned-nothing", 8191, 8193, 8195},
                                {"secret/36-positive-long-reduction", 2147483647, 1, 1},
                                {"rank/cube-aaaaaaaaaaaaaaaaaaaaaaaaa-8192", 1, 1, 1},
                                {"rank/cube-aaaaaaaaaaaaaaaaaaaaaaaaa-2048", 1, 1, 1}});
    CHECK(layout.shown_name("secret/29-all-odd-aligned-nothing") == "secret/29-all-odd-aligned…");
    CHECK(layout.shown_name("rank/cube-aaaaaaaaaaaaaaaaaaaaaaaaa-8192") !=
          layout.shown_name("rank/cube-aaaaaaaaaaaaaaaaaaaaaaaaa-2048"));
    auto r = accepted_cube();
    r.name = "secret/36-positive-long-reduction";
    r.M = 2147483647;
    r.N = r.K = 1;
    r.timing->stats.median_ms = r.timing->stats.q1_ms = r.timing->stats.q3_ms = 0.5;
    r.timing->stats.q3_ms = 0.6; // a spread: "0.50 ± 0.03 ms"
    r.baseline = timed(0.25);
    const auto row = format_row(r, layout, false);
    CAPTURE(row);
    CHECK(display_width(lines_of(row).front()) <= console_width);
    CHECK(contains(row, "secret/36-positive-long-r…  2147483647×1×1  AC"));
    CHECK(contains(row, " ± "));
}

TEST_CASE("times are printed to the resolution of their run, and below it say so") {
    auto tiny = timed(0.023);
    CHECK(time_text(tiny) == "< 0.05 ms");      // the path's run-to-run drift is 0.01 ms
    CHECK(time_text(timed(0.51)) == "0.51 ms"); // 0.01 ms is under 2% of it
    CHECK(time_text(timed(0.2)) == "0.20 ± 0.01 ms");
    auto spread = timed(0.51);
    spread.stats.q1_ms = 0.40;
    spread.stats.q3_ms = 0.62; // IQR 0.22 over 10 calls: the median's error 0.065
    CHECK(time_text(spread) == "0.51 ± 0.07 ms");
    CHECK(time_text(timed(17.034)) == "17.0 ms"); // 0.5%: 0.085 ms
    CHECK(time_text(timed(2.5)) == "2.5 ms");     // 0.0125 ms: the hundredths would move by more than one
    CHECK(time_text(timed(1.5)) == "1.50 ms");    // 0.01 ms: the hundredths move by one at most
    CHECK(time_text(timed(1234.0)) == "1.23 s");
    auto offset_spread = timed(0.3);
    offset_spread.empty_call.spread_ms = 0.03; // the offset taken off is no surer than that
    CHECK(time_text(offset_spread) == "0.30 ± 0.03 ms");
}

TEST_CASE("the summary counts verdicts, cases not run, the share of cuBLAS and the command's time") {
    std::vector<CaseResult> results;
    for (int i = 0; i < 22; ++i) results.push_back(with_verdict("c" + std::to_string(i), Verdict::AC));
    results.push_back(with_verdict("w", Verdict::WA));
    results.push_back(with_verdict("t", Verdict::TLE));
    CHECK(format_summary(results, 0, 8.04) == "22/24 AC · 1 WA · 1 TLE · 8.0 s\n");
    CHECK(format_summary(results, 3, 0) == "22/27 AC · 1 WA · 1 TLE · 3 not run\n");
    std::vector<CaseResult> timed_cases{accepted_cube(), accepted_cube()};
    timed_cases[1].baseline = timed(2.0); // 80% and 20%: their geometric mean is 40%
    CHECK(format_summary(timed_cases, 0, 5) == "2/2 AC · 40% of cuBLAS (2 cases) · 5.0 s\n");
}

TEST_CASE("the summary lists only verdicts that occurred, worst last") {
    std::vector<CaseResult> results{with_verdict("a", Verdict::JE), with_verdict("b", Verdict::RE),
                                    with_verdict("c", Verdict::RE), with_verdict("d", Verdict::CE)};
    const auto text = format_summary(results, 0, 0);
    CHECK(text == "0/4 AC · 2 RE · 1 CE · 1 JE\n");
}

TEST_CASE("the method line says in one line how results were verified and timed") {
    auto r = accepted_cube();
    r.verification.calls = 4195;
    const auto line = format_method({r});
    CHECK(line == "checked: all 4195 calls vs FP64 · timed: GPU clock, cold L2, empty call subtracted (--verbose)\n");
    CHECK(display_width(line) <= console_width + 1);
    CHECK(format_method({}).empty());
}

TEST_CASE("the events' cross-check speaks only on a case timed against cuBLAS that disagrees, in one line") {
    auto agreeing = accepted_cube();
    agreeing.timing->own_events_ms = 10.0;
    CHECK(format_events_alert({agreeing}).empty());
    auto small = with_verdict("secret/x", Verdict::AC);
    small.timing = timed(0.02);
    small.timing->own_events_ms = 0.01; // +100%, but no time that matters
    CHECK(format_events_alert({small}).empty());
    auto disagreeing = accepted_cube();
    disagreeing.timing->own_events_ms = 8.0; // the clock saw 25% more than the events
    const auto line = format_events_alert({disagreeing, disagreeing});
    CAPTURE(line);
    CHECK(lines_of(line).size() == 1);
    CHECK(line.rfind("perf/cube-1", 0) == 0);
    CHECK(contains(line, ": the solution's own events say 8.00 ms, the clock 10.0 ms (+25.0%)"));
    CHECK(contains(line, "1 more (--verbose)"));
    CHECK(display_width(lines_of(line).front()) <= console_width);
    // A long name is cut to the room the sentence leaves, and the line still fits.
    disagreeing.name = "perf/" + std::string(120, 'n');
    const auto cut = format_events_alert({disagreeing});
    CHECK(lines_of(cut).size() == 1);
    CHECK(display_width(lines_of(cut).front()) <= console_width);
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

TEST_CASE("a JSON report of a run that judged no case has no worst verdict: null, not AC") {
    const auto j = report_json(run_context(), {}, exit_status::no_gpu);
    CHECK(j.at("summary").at("worst").is_null());
    CHECK(j.at("summary").at("counts").empty());
}

TEST_CASE("the JSON report says the schema's version, the device's compute capability, each timing's spread and "
          "the empty call's own median") {
    auto r = accepted_cube();
    r.timing->stats = {17, 1.5, 1.25, 9.75, 1.375, 1.875};
    r.timing->empty_call.median_ms = 0.3125;
    r.timing->empty_call.empty_median_ms = 0; // no calibration call: the report gives the empty call's own
    RunContext run = run_context();
    run.device.present = true;
    run.device.cc_major = 9;
    run.device.cc_minor = 0;
    const auto j = report_json(run, {r}, 0);
    CHECK(j.at("schema_version") == report_schema_version);
    CHECK(j.at("device").at("compute_capability") == "sm_90");
    const auto &timing = j.at("cases")[0].at("timing");
    CHECK(timing.at("relative_spread").get<double>() == doctest::Approx(1.0 / 3.0)); // (1.875 − 1.375) / 1.5
    CHECK(timing.at("empty_call").at("empty_median_ms") == 0.3125);
}

TEST_CASE("the JSON report's bounds are those of the precision judged against") {
    RunContext run = run_context();
    CHECK(report_json(run, {}, 0).at("bounds").at("normwise") == "4·u·√N");
    run.precision = "tf32";
    const auto bounds = report_json(run, {}, 0).at("bounds");
    CHECK(bounds.at("precision") == "tf32");
    CHECK(bounds.at("input_unit_roundoff") == 0x1p-11);
    CHECK(bounds.at("normwise") == "4·u·√N + 4·u_p");
}

TEST_CASE("the verification line adds up every case's verified calls") {
    std::vector<CaseResult> results{with_verdict("a", Verdict::AC), with_verdict("b", Verdict::AC)};
    CHECK(format_verification(results).empty()); // nothing ran
    results[0].verification = Verification{20, 1, 19, 2, 1024};
    results[1].verification = Verification{1, 1, 0, 0, 0};
    CHECK(format_verification(results) == "verified: every call of solve(), 21 calls: 2 against the full FP64 "
                                          "reference, 19 by 2 Freivalds projections and 1024 sampled elements each\n");
}

TEST_CASE("the judge's own time: each part in seconds, the rest what no part names, a wait for the GPU only when there "
          "was one") {
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

TEST_CASE("the report's case carries its times as the console prints them: time_text, cublas_time_text") {
    auto r = accepted_cube();
    r.timing = timed(17.034); // at 0.085 ms resolution: "17.0 ms", never "17.03"
    const auto c = report_json(run_context(), {r}, 0).at("cases").at(0);
    CHECK(c.at("time_text") == "17.0 ms");
    CHECK(c.at("cublas_time_text") == time_text(*r.baseline));
    CHECK(contains(format_row(r, ConsoleLayout(), false), c.at("time_text").get<std::string>()));
    r.timing.reset();
    r.baseline.reset();
    const auto untimed = report_json(run_context(), {r}, 0).at("cases").at(0);
    CHECK(!untimed.contains("time_text"));
    CHECK(!untimed.contains("cublas_time_text"));
}
