// The console's text: the terminal table, its summary, the method lines behind --verbose.
//
// The default output is read at a glance (docs/output.md): a header of two lines, the table,
// one summary line, one line saying how the results were verified and timed, and a line of
// the events' cross-check only where it finds something to act on. Every line fits in
// console_width columns, and a time is printed only to the resolution its run has
// (measurement/time_resolution.hpp). --verbose adds the method lines (verification, clock, events,
// the judge's own time); --json holds every figure.
#pragma once

#include "command_line/reporters/run_context.hpp"
#include "common/terminal_text.hpp"
#include "verification/case_result.hpp"

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gemm {

// The table's columns: the name and shape widths, and each name as shown (cut with "…",
// still telling the names apart: abbreviate_uniquely).
class ConsoleLayout {
  public:
    explicit ConsoleLayout(const std::vector<PlannedCase> &cases = {});
    std::string shown_name(const std::string &name) const;
    std::size_t name_width() const { return name_width_; }
    std::size_t shape_width() const { return shape_width_; }

  private:
    std::size_t name_width_, shape_width_;
    std::map<std::string, std::string> shown_;
};

// The console's text. What comes from outside (the solution's file name, case names, a
// verdict's detail, the solution's output, the GPU's name) is escaped for the terminal;
// with `colour` the verdicts are in ANSI colours (terminal_wants_colour decides).
std::string format_header(const RunContext &run);
std::string format_device(const DeviceInfo &device);
std::string format_column_titles(const ConsoleLayout &layout = ConsoleLayout());
// One row; for anything but AC the lines below it say why, wrapped to console_width.
std::string format_row(const CaseResult &r, const ConsoleLayout &layout, bool show_output, bool colour = false);
// The map of bad elements under a WA row, with its legend.
std::string format_map(const std::string &map, int M, int K);
// "47/47 AC · 16% of cuBLAS (3 cases) · 8.0 s": the counts (and cases not run), the
// solution's speed against cuBLAS where it was timed against it, the command's time.
std::string format_summary(const std::vector<CaseResult> &results, std::size_t not_run, double total_s,
                           bool colour = false);
// One line: how the results were verified and timed, in a CUDA programmer's words.
std::string format_method(const std::vector<CaseResult> &results);
// The events' cross-check where it matters and disagrees (a case timed against cuBLAS):
// one line, or "" when there is nothing to act on.
std::string format_events_alert(const std::vector<CaseResult> &results);
// "1 case", "44 cases".
std::string count_of_cases(std::size_t n);
// The verdict's name, in its colour when `colour` (AC green, WA red, TLE yellow, RE magenta,
// CE yellow, JE cyan).
std::string styled_verdict(Verdict v, bool colour);
// Colour on the terminal `fd` is wanted: it is a terminal, NO_COLOR is unset or empty
// (no-color.org) and TERM is not "dumb".
bool terminal_wants_colour(int fd);
// `text` broken at spaces into lines of at most `width` columns, each after `indent` spaces;
// a word longer than a line (a path, a mangled name) stays whole on a line of its own.
std::string fit_to_width(const std::string &text, std::size_t width, std::size_t indent);
// Each line of `text` as it is where it fits in `width` columns (a table keeps its spacing),
// else broken at spaces, its continuation lines `hanging` spaces further in than it.
std::string wrapped_where_long(const std::string &text, std::size_t width, std::size_t hanging);

// --verbose: the method, every figure of it.
// "verified: every call of solve(), 812 calls: 41 against …": how the outputs behind the times were checked.
std::string format_verification(const std::vector<CaseResult> &results);
// "the site's allclose (atol 0.0001, rtol 0.0001) against the FP64 product: passes on every
// checked case (47 cases)", or the cases it fails on: what the problem's site would say.
std::string format_site_allclose(const std::vector<CaseResult> &results);
// "timed by the referee's clock; what a call costs beyond its own work, 0.31–0.36 ms (spread
// ≤ 0.01 ms), is taken off every time …", or "" when nothing was timed.
std::string format_clock(const std::vector<CaseResult> &results);
// The runner's own events against the clock, solution and cuBLAS: "" when none were sent.
std::string format_events_cross_check(const std::vector<CaseResult> &results);

Verdict worst_verdict(const std::vector<CaseResult> &results);
double error_over_bound(const CaseResult &r); // the larger of the two ratios; < 0 when unchecked

} // namespace gemm
