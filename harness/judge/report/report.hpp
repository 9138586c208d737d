// What the user reads: the terminal table, the summary line, and the JSON report.
#pragma once

#include "core/case_result.hpp"
#include "judge/compile/compile.hpp"
#include "judge/report/run_timeline.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemm {

struct RunContext {
    std::string solution; // as the user named it
    std::string arch;     // what it was compiled for
    CompileResult compile;
    DeviceInfo device;
    double time_budget_s = 0;            // a perf or rank case's, or one timed against cuBLAS
    double correctness_time_budget_s = 0; // a case timed for correctness alone (judge/run/case_policy.hpp)
    std::string precision = "fp32"; // what the outputs are judged against
    RunTimeline timeline;
    std::string cpus; // where the referee and the runners ran (judge/os/cpu_placement.hpp)
};

// The console's text. What comes from outside (the solution's file name, case names, a
// verdict's detail, the solution's output, the GPU's name) is escaped for the terminal;
// with `colour` the verdicts are in ANSI colours (terminal_wants_colour decides).
std::string format_header(const RunContext &run);
std::string format_device(const DeviceInfo &device);
std::string format_column_titles();
// One row; for anything but AC a second, indented line says why.
std::string format_row(const CaseResult &r, bool show_output, bool colour = false);
// The map of bad elements under a WA row, with its legend.
std::string format_map(const std::string &map, int M, int K);
std::string format_summary(const std::vector<CaseResult> &results, int exit_status, bool colour = false);
// The verdict's name, in its colour when `colour` (AC green, WA red, TLE yellow, RE magenta,
// CE yellow, JE cyan).
std::string styled_verdict(Verdict v, bool colour);
// Colour on the terminal `fd` is wanted: it is a terminal, NO_COLOR is unset or empty
// (no-color.org) and TERM is not "dumb".
bool terminal_wants_colour(int fd);
// "verified: 812 calls, every one: 41 against …": how the outputs behind the times were checked.
std::string format_verification(const std::vector<CaseResult> &results);
// "timed by the referee's clock; an empty call's cost, 0.31–0.36 ms (spread ≤ 0.01 ms),
// is taken off every time", or "" when nothing was timed.
std::string format_clock(const std::vector<CaseResult> &results);
// The runner's own events against the clock, solution and cuBLAS: "" when none were sent.
std::string format_events_cross_check(const std::vector<CaseResult> &results);

Verdict worst_verdict(const std::vector<CaseResult> &results);
double error_over_bound(const CaseResult &r); // the larger of the two ratios; < 0 when unchecked

// Every figure of a run; each string in it is valid UTF-8 (made_valid_utf8), so it can be
// written (dump) whatever bytes the compiler, the solution or a file name held.
nlohmann::json report_json(const RunContext &run, const std::vector<CaseResult> &results, int exit_status);

// The value with every string and key made valid UTF-8 (core/terminal_text.hpp: valid_utf8).
nlohmann::json made_valid_utf8(nlohmann::json value);

// "0.011 ms", "50.3 ms", "1.25 s": three significant digits.
std::string format_duration_ms(double ms);

} // namespace gemm
