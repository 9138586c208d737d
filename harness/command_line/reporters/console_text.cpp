#include "command_line/reporters/console_text.hpp"
#include "common/terminal_text.hpp"
#include "common/text.hpp"
#include "measurement/events_cross_check.hpp"
#include "measurement/stats.hpp"
#include "measurement/time_resolution.hpp"
#include "verification/check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/color.h>
#include <map>
#include <sstream>
#include <unistd.h>

namespace gemm {

namespace {

std::string shape(int M, int N, int K) { return std::to_string(M) + "×" + std::to_string(N) + "×" + std::to_string(K); }

// A column's text and the two spaces after it, by display width: printf pads by bytes, and
// "×" is two bytes but one column.
std::string pad(const std::string &text, std::size_t width) { return pad_to_width(text, width + 2, 2); }

std::string escaped(const std::string &text) { return escape_for_terminal(text, true); }

// The verdict table names the colour; {fmt} writes it.
fmt::terminal_color terminal_colour_of(TerminalColour c) {
    switch (c) {
    case TerminalColour::green: return fmt::terminal_color::green;
    case TerminalColour::red: return fmt::terminal_color::red;
    case TerminalColour::yellow: return fmt::terminal_color::yellow;
    case TerminalColour::magenta: return fmt::terminal_color::magenta;
    case TerminalColour::cyan: return fmt::terminal_color::cyan;
    }
    return fmt::terminal_color::white;
}

// The verdict's colour and weight as the verdict table gives them: the page reads the same row.
fmt::text_style verdict_style(Verdict v) {
    const VerdictRow &row = verdict_row(v);
    fmt::text_style style = fmt::fg(terminal_colour_of(row.colour));
    return row.bold ? style | fmt::emphasis::bold : style;
}

// `text` in v's colour, padded to `width` columns by its plain width.
std::string styled_cell(Verdict v, const std::string &text, std::size_t width, bool colour) {
    const std::size_t columns = display_width(text);
    return (colour ? fmt::format(verdict_style(v), "{}", text) : text) +
           std::string(width > columns ? width - columns : 1, ' ');
}

std::string indented_tail(const std::string &tail, int max_lines) {
    std::vector<std::string> lines;
    std::istringstream in(tail);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    const std::size_t first = lines.size() > std::size_t(max_lines) ? lines.size() - max_lines : 0;
    std::string out;
    for (std::size_t i = first; i < lines.size(); ++i)
        out += fit_to_width("| " + escape_for_terminal(lines[i]), console_width, 6);
    return out;
}

// The columns after the shape: verdict, error/bound, time, TFLOP/s, then "vs cuBLAS".
constexpr std::size_t verdict_width = 7, error_width = 9, time_width = 14, rate_width = 7;
// The widest name and shape a row gives them: the rest of a line's 100 columns.
constexpr std::size_t max_name_width = 26, max_shape_width = 16;
constexpr std::size_t default_shape_width = 14; // "8192×8192×8192"

std::string error_text(const CaseResult &r) {
    const double ratio = error_over_bound(r);
    if (ratio < 0) return "";
    if (!std::isfinite(ratio)) return "inf";
    return ratio < 1000 ? formatted("%.2f", ratio) : formatted("%.2g", ratio);
}

// TFLOP/s to as many digits as the time has.
std::string rate_text(const CaseResult &r) {
    const TimedRun &run = *r.timing;
    const double resolution = time_resolution_ms(run);
    if (resolve_time(run.stats.median_ms, resolution).kind == ResolvedTime::Kind::Below) return "";
    const double tflops = gflops(flop_count(r.M, r.N, r.K, r.batch), run.stats.median_ms) / 1000;
    const int digits = significant_digits(run.stats.median_ms, resolution);
    const int decimals = std::max(0, digits - 1 - static_cast<int>(std::floor(std::log10(std::max(tflops, 1e-9)))));
    // Under a thousandth of a TFLOP/s a rate says nothing of a kernel: the call is all path.
    if (decimals > 3) return "";
    return formatted("%.*f", decimals, tflops);
}

// The solution's speed as a share of cuBLAS's on the same inputs.
std::string cublas_share_text(const CaseResult &r) {
    if (!r.timing || !r.baseline || r.timing->stats.median_ms <= 0) return "";
    const TimedRun &own = *r.timing;
    if (resolve_time(own.stats.median_ms, time_resolution_ms(own)).kind == ResolvedTime::Kind::Below) return "";
    return formatted("%.0f%%", 100.0 * r.baseline->stats.median_ms / own.stats.median_ms);
}

} // namespace

std::string count_of_cases(std::size_t n) { return std::to_string(n) + (n == 1 ? " case" : " cases"); }

ConsoleLayout::ConsoleLayout(const std::vector<PlannedCase> &cases)
    : name_width_(std::string("case").size()), shape_width_(default_shape_width) {
    std::vector<std::string> names;
    std::size_t widest_shape = 0;
    for (const auto &c : cases) {
        names.push_back(escape_for_terminal(c.name));
        name_width_ = std::max(name_width_, display_width(names.back()));
        widest_shape = std::max(widest_shape, display_width(shape(c.M, c.N, c.K)));
    }
    if (cases.empty()) name_width_ = max_name_width;
    name_width_ = std::min(name_width_, max_name_width);
    if (!cases.empty()) shape_width_ = std::clamp(widest_shape, std::string("M×N×K").size() - 1, max_shape_width);
    const auto cut = abbreviate_uniquely(names, name_width_);
    for (std::size_t i = 0; i < cases.size(); ++i) shown_[cases[i].name] = cut[i];
}

std::string ConsoleLayout::shown_name(const std::string &name) const {
    const auto found = shown_.find(name);
    if (found != shown_.end()) return found->second;
    return abbreviate_uniquely({escape_for_terminal(name)}, name_width_).front();
}

std::string fit_to_width(const std::string &text, std::size_t width, std::size_t indent) {
    const std::size_t room = width > indent + 8 ? width - indent : 8;
    std::string out;
    std::istringstream lines(wrap_to_width(text, room));
    // Broken at spaces only: a word longer than the line (a path, a mangled name) stays whole,
    // so that it can still be copied from the terminal.
    for (std::string line; std::getline(lines, line);) out += std::string(indent, ' ') + line + "\n";
    return out;
}

std::string wrapped_where_long(const std::string &text, std::size_t width, std::size_t hanging) {
    std::string out;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        out += (display_width(line) <= width ? line : wrap_to_width(line, width, hanging)) + "\n";
    if (!text.empty() && text.back() != '\n') out.pop_back();
    return out;
}

std::string styled_verdict(Verdict v, bool colour) {
    return colour ? fmt::format(verdict_style(v), "{}", verdict_name(v)) : std::string(verdict_name(v));
}

bool terminal_wants_colour(int fd) {
    const char *no_colour = std::getenv("NO_COLOR");
    const char *term = std::getenv("TERM");
    return isatty(fd) && !(no_colour && *no_colour) && !(term && std::strcmp(term, "dumb") == 0);
}

double error_over_bound(const CaseResult &r) {
    if (!r.check) return -1;
    return std::max(r.check->elementwise_ratio, r.check->normwise_ratio);
}

std::string format_device(const DeviceInfo &d) {
    std::string text = d.name + ", " + d.arch() + ", " + std::to_string(d.sm_count) + " SMs, " +
                       std::to_string(d.l2_bytes >> 20) + " MB L2";
    if (!d.driver_version.empty()) text += ", driver " + d.driver_version;
    text += formatted(", CUDA %d.%d", d.cuda_runtime_version / 1000, d.cuda_runtime_version % 1000 / 10);
    if (d.sm_clock_max_mhz > 0) text += formatted(", SM clock %d/%d MHz", d.sm_clock_mhz, d.sm_clock_max_mhz);
    return text;
}

std::string format_header(const RunContext &run) {
    const std::string file = std::filesystem::path(run.solution).filename().string();
    std::string compiled = run.compile.cached ? "(cached build)" : formatted("in %.1f s", run.compile.seconds);
    const std::string first =
        escape_for_terminal(file + "  compiled for " + (run.arch.empty() ? "nvcc's default target" : run.arch) + " (" +
                            run.device.name + ") " + compiled);
    return truncate_to_width(first, console_width) + "\n" +
           truncate_to_width("GPU: " + escape_for_terminal(format_device(run.device)), console_width) + "\n";
}

std::string format_column_titles(const ConsoleLayout &layout) {
    return pad("case", layout.name_width()) + pad("M×N×K", layout.shape_width()) + pad("verdict", verdict_width) +
           pad("err/bound", error_width) + pad("time", time_width) + pad("TFLOP/s", rate_width) + "vs cuBLAS\n";
}

std::string format_row(const CaseResult &r, const ConsoleLayout &layout, bool show_output, bool colour) {
    std::string row = pad(layout.shown_name(r.name), layout.name_width()) +
                      pad(shape(r.M, r.N, r.K), layout.shape_width()) +
                      styled_cell(r.verdict, verdict_name(r.verdict), verdict_width + 2, colour);
    std::string cells = pad(error_text(r), error_width);
    if (r.timing) cells += pad(time_text(*r.timing), time_width) + pad(rate_text(r), rate_width) + cublas_share_text(r);
    cells.erase(cells.find_last_not_of(' ') + 1);
    row += cells;
    row.erase(row.find_last_not_of(' ') + 1);
    row += "\n";
    if (r.verdict != Verdict::AC) row += fit_to_width(escaped(r.detail), console_width, 6);
    if (!r.output_tail.empty()) {
        if (show_output)
            row += indented_tail(r.output_tail, 20);
        else if (r.verdict != Verdict::AC)
            row += "      (the solution printed output: --show-output shows it)\n";
    }
    return row;
}

std::string format_map(const std::string &map, int M, int K) {
    const auto rows = static_cast<int>(std::count(map.begin(), map.end(), '\n'));
    const auto cols = rows > 0 ? static_cast<int>(map.find('\n')) : 0;
    if (rows == 0 || cols == 0) return "";
    std::string text = formatted("      map of C, %d×%d cells of about %d×%d elements (X wrong, u never written):\n",
                                 rows, cols, (M + rows - 1) / rows, (K + cols - 1) / cols);
    std::size_t start = 0;
    for (int r = 0; r < rows; ++r) {
        text += "      |" + map.substr(start, cols) + "|\n";
        start += cols + 1;
    }
    return text;
}

Verdict worst_verdict(const std::vector<CaseResult> &results) {
    Verdict worst = Verdict::AC;
    for (const auto &r : results) worst = worse(worst, r.verdict);
    return worst;
}

std::string format_summary(const std::vector<CaseResult> &results, std::size_t not_run, double total_s, bool colour) {
    std::map<Verdict, int> counts;
    for (const auto &r : results) ++counts[r.verdict];
    const std::size_t judged = results.size() + not_run;
    std::string text = styled_cell(
        worst_verdict(results), std::to_string(counts[Verdict::AC]) + "/" + std::to_string(judged) + " AC", 0, colour);
    text.pop_back(); // styled_cell's gap
    for (Verdict v : {Verdict::WA, Verdict::TLE, Verdict::RE, Verdict::CE, Verdict::JE})
        if (counts[v] > 0) text += " · " + std::to_string(counts[v]) + " " + verdict_name(v);
    if (not_run > 0) text += " · " + std::to_string(not_run) + " not run";
    // Against cuBLAS: the geometric mean of its time over the solution's, where both were timed.
    double log_sum = 0;
    int compared = 0;
    for (const auto &r : results)
        if (!cublas_share_text(r).empty()) {
            log_sum += std::log(r.baseline->stats.median_ms / r.timing->stats.median_ms);
            ++compared;
        }
    if (compared > 0)
        text +=
            formatted(" · %.0f%% of cuBLAS (%s)", 100 * std::exp(log_sum / compared), count_of_cases(compared).c_str());
    if (total_s > 0) text += formatted(" · %.1f s", total_s);
    return text + "\n";
}

std::string format_method(const std::vector<CaseResult> &results) {
    int calls = 0;
    bool timed = false;
    for (const auto &r : results) {
        calls += r.verification.calls;
        timed = timed || r.timing;
    }
    if (calls == 0) return "";
    std::string text =
        "checked: " + std::string(calls == 1 ? "the call" : "all " + std::to_string(calls) + " calls") + " vs FP64";
    if (timed) text += " · timed: GPU clock, cold L2, empty call subtracted";
    return text + " (--verbose)\n";
}

std::string format_events_alert(const std::vector<CaseResult> &results) {
    std::vector<std::pair<const CaseResult *, EventsCrossCheck>> disagreeing;
    for (const auto &r : results) {
        if (!r.timing || !r.baseline) continue; // a case whose time matters: timed against cuBLAS
        if (const auto check = cross_check_events(*r.timing); check && !check->agree)
            disagreeing.emplace_back(&r, *check);
    }
    if (disagreeing.empty()) return "";
    const auto &[r, check] = disagreeing.front();
    std::string text = formatted("the solution's own events say %#.3g ms, the clock %#.3g ms (%+.1f%%)",
                                 check.events_ms, check.clock_ms, 100 * check.difference_ms() / check.events_ms);
    if (disagreeing.size() > 1) text += formatted("; %zu more (--verbose)", disagreeing.size() - 1);
    // One line, the name cut to the room left; where too little is left, the name on a line
    // of its own.
    const std::size_t text_width = display_width(text) + 2;
    if (text_width + 12 <= console_width)
        return abbreviate_uniquely({escape_for_terminal(r->name)}, console_width - text_width).front() + ": " + text +
               "\n";
    return escape_for_terminal(r->name) + ":\n" + fit_to_width(text, console_width, 2);
}

std::string format_verification(const std::vector<CaseResult> &results) {
    Verification total;
    for (const auto &r : results) {
        total.calls += r.verification.calls;
        total.full_checks += r.verification.full_checks;
        total.projected_checks += r.verification.projected_checks;
        total.projection_vectors = std::max(total.projection_vectors, r.verification.projection_vectors);
        total.sampled_elements = std::max(total.sampled_elements, r.verification.sampled_elements);
    }
    if (total.calls == 0) return "";
    return "verified: every call of solve(), " + describe(total) + "\n";
}

std::string format_site_allclose(const std::vector<CaseResult> &results) {
    std::optional<SiteTolerance> tolerance;
    std::vector<const CaseResult *> failing;
    int checked = 0;
    for (const auto &r : results) {
        if (!r.check || !r.check->site) continue;
        tolerance = r.check->site->tolerance;
        ++checked;
        if (!r.check->site->passes()) failing.push_back(&r);
    }
    if (!tolerance) return "";
    std::string text = formatted(
        "the site's allclose (atol %g, rtol %g) against the judge's reference: ", tolerance->atol, tolerance->rtol);
    if (failing.empty()) return text + "passes on every checked case (" + count_of_cases(checked) + ")\n";
    text += "fails on " + count_of_cases(failing.size()) + ":";
    for (std::size_t i = 0; i < failing.size() && i < 3; ++i)
        text += formatted(" %s (%lld of %lld elements)%s", escaped(failing[i]->name).c_str(),
                          failing[i]->check->site->outside, failing[i]->check->site->elements,
                          i + 1 < std::min<std::size_t>(failing.size(), 3) ? "," : "");
    if (failing.size() > 3) text += formatted(" and %zu more", failing.size() - 3);
    return text + "\n";
}

std::string format_clock(const std::vector<CaseResult> &results) {
    double least = 0, most = 0, widest_spread = 0, most_excess = 0;
    int cases = 0, after_solution = 0, stood_in = 0, capped = 0, several_kinds = 0, between_calls = 0;
    double widest_kinds = 0;
    int in_solution_process = 0;
    double least_process_excess = 0, most_process_excess = 0;
    for (const auto &r : results) {
        for (const std::optional<TimedRun> *run : {&r.timing, &r.baseline}) {
            if (!*run) continue;
            const EmptyCall &e = (*run)->empty_call;
            least = cases == 0 ? e.median_ms : std::min(least, e.median_ms);
            most = std::max(most, e.median_ms);
            widest_spread = std::max(widest_spread, e.spread_ms);
            if (run == &r.timing) after_solution += !e.measured_before_solution;
            if (e.stands_in_for_ms) {
                ++stood_in;
                most_excess = std::max(most_excess, e.median_ms - e.empty_median_ms);
            }
            between_calls += e.interleaved;
            if (!e.calibrations.empty()) {
                ++several_kinds;
                widest_kinds = std::max(widest_kinds, e.spread_ms);
            }
            capped += e.capped;
            if (e.solution_process_excess_ms) {
                const double excess = *e.solution_process_excess_ms;
                least_process_excess = in_solution_process == 0 ? excess : std::min(least_process_excess, excess);
                most_process_excess = in_solution_process == 0 ? excess : std::max(most_process_excess, excess);
                ++in_solution_process;
            }
            ++cases;
        }
    }
    if (cases == 0) return "";
    std::string text = formatted("timed by the referee's clock; what a call costs beyond its own work, %.3f", least);
    if (most > least) text += formatted("–%.3f", most);
    text += formatted(" ms (spread ≤ %.3f ms), is taken off every time", widest_spread);
    if (stood_in > 0)
        text += formatted("; for %d run(s) of 0.05 ms or more it was measured by a stand-in kernel of the run's own "
                          "length (up to %.3f ms more than an empty call)",
                          stood_in, most_excess);
    if (several_kinds > 0)
        text += formatted("; %d run(s) under 3 ms were stood in for by kernels of three kinds (light, shared-memory, "
                          "streaming): %d between the run's own calls (what they cost together taken off), %d after "
                          "them (the middle of the kinds' costs taken off, half their range the least spread); the "
                          "offset's spread up to %.3f ms",
                          several_kinds, between_calls, several_kinds - between_calls, widest_kinds);
    if (capped > 0)
        text += formatted("; in %d run(s) the stand-in cost more than its length explains, and was capped", capped);
    if (in_solution_process > 0)
        text += formatted("; for %d of the solution's runs the same stand-ins were made in its own process too, and "
                          "cost %+.1f … %+.1f µs more there (never taken off: that process is not trusted; the "
                          "cross-check below counts it in the offset's spread)",
                          in_solution_process, 1e3 * least_process_excess, 1e3 * most_process_excess);
    if (after_solution > 0)
        text += formatted("; in %d case(s) the empty call measured after the solution's calls was smaller and used",
                          after_solution);
    return text + "\n" + format_events_cross_check(results);
}

// The runner's own CUDA events beside the referee's clock: what an in-process judge
// would have printed. A disagreement is shown, with its case, and changes nothing.
std::string format_events_cross_check(const std::vector<CaseResult> &results) {
    std::string text;
    for (const bool baseline : {false, true}) {
        int compared = 0, agreeing = 0;
        std::string disagreements;
        for (const auto &r : results) {
            const std::optional<TimedRun> &run = baseline ? r.baseline : r.timing;
            if (!run) continue;
            const auto check = cross_check_events(*run);
            if (!check) continue;
            ++compared;
            if (check->agree) {
                ++agreeing;
            } else if (compared - agreeing <= 3) {
                disagreements += "\n  " + r.name + ": " + describe(*check);
            }
        }
        if (compared == 0) continue;
        text += formatted("%s own CUDA events agree with the clock (within 1%% or the offset's spread) in %d of %d "
                          "timed case(s)",
                          baseline ? "cuBLAS's" : "the solution's", agreeing, compared);
        if (compared - agreeing > 3) disagreements += formatted("\n  and %d more", compared - agreeing - 3);
        text += disagreements + "\n";
    }
    return text;
}

} // namespace gemm
