#include "judge/report/report.hpp"
#include "core/events_cross_check.hpp"
#include "channel/protocol.hpp"
#include "core/check.hpp"
#include "core/stats.hpp"
#include "core/terminal_text.hpp"
#include "core/text.hpp"

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

std::string shape(const CaseResult &r) {
    return std::to_string(r.M) + "×" + std::to_string(r.N) + "×" + std::to_string(r.K);
}

// printf pads by bytes; "×" is two bytes but one column.
std::string pad(const std::string &text, std::size_t width) { return pad_to_width(text, width); }

std::string escaped(const std::string &text) { return escape_for_terminal(text, true); }

fmt::text_style verdict_style(Verdict v) {
    using fmt::terminal_color;
    switch (v) {
    case Verdict::AC: return fmt::fg(terminal_color::green) | fmt::emphasis::bold;
    case Verdict::WA: return fmt::fg(terminal_color::red) | fmt::emphasis::bold;
    case Verdict::TLE: return fmt::fg(terminal_color::yellow) | fmt::emphasis::bold;
    case Verdict::RE: return fmt::fg(terminal_color::magenta) | fmt::emphasis::bold;
    case Verdict::CE: return fmt::fg(terminal_color::yellow);
    case Verdict::JE: return fmt::fg(terminal_color::cyan) | fmt::emphasis::bold;
    }
    return {};
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
    for (std::size_t i = first; i < lines.size(); ++i) out += "      | " + escape_for_terminal(lines[i]) + "\n";
    return out;
}

} // namespace

std::string styled_verdict(Verdict v, bool colour) {
    return colour ? fmt::format(verdict_style(v), "{}", verdict_name(v)) : std::string(verdict_name(v));
}

bool terminal_wants_colour(int fd) {
    const char *no_colour = std::getenv("NO_COLOR");
    const char *term = std::getenv("TERM");
    return isatty(fd) && !(no_colour && *no_colour) && !(term && std::strcmp(term, "dumb") == 0);
}

std::string format_duration_ms(double ms) {
    // Thresholds on the rounded value, so 999.6 ms reads "1 s" and 0.9996 ms "1 ms".
    if (ms >= 999.5) return formatted("%.3g s", ms / 1000);
    if (ms >= 99.95) return formatted("%.0f ms", ms);
    if (ms >= 0.9995) return formatted("%.3g ms", ms);
    return formatted("%.3f ms", ms);
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
    return escape_for_terminal(file + "  compiled for " + (run.arch.empty() ? "nvcc's default target" : run.arch) +
                               " (" + run.device.name + ") " + compiled) +
           "\nGPU: " + escape_for_terminal(format_device(run.device)) + "\n";
}

std::string format_column_titles() {
    return pad("case", 30) + pad("M×N×K", 20) + pad("verdict", 9) + pad("error/bound", 13) + pad("median", 12) +
           pad("GFLOP/s", 10) + "vs cuBLAS\n";
}

std::string format_row(const CaseResult &r, bool show_output, bool colour) {
    const double ratio = error_over_bound(r);
    std::string row = pad(escape_for_terminal(r.name), 30) + pad(shape(r), 20) +
                      styled_cell(r.verdict, verdict_name(r.verdict), 9, colour) +
                      pad(ratio < 0               ? "-"
                          : !std::isfinite(ratio) ? "inf"
                          : ratio < 1000          ? formatted("%.2f", ratio)
                                                  : formatted("%.3g", ratio),
                          13);
    if (r.timing) {
        const double ms = r.timing->stats.median_ms;
        row += pad(format_duration_ms(ms), 12) + pad(formatted("%.1f", gflops(flop_count(r.M, r.N, r.K), ms)), 10);
        if (r.baseline) row += formatted("%.0f%%", 100.0 * r.baseline->stats.median_ms / ms);
    }
    row += "\n";
    if (r.verdict != Verdict::AC) row += "      " + escaped(r.detail) + "\n";
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

std::string format_summary(const std::vector<CaseResult> &results, int exit_status, bool colour) {
    std::map<Verdict, int> counts;
    for (const auto &r : results) ++counts[r.verdict];
    std::string text = std::to_string(counts[Verdict::AC]) + "/" + std::to_string(results.size()) + " AC";
    for (Verdict v : {Verdict::WA, Verdict::TLE, Verdict::RE, Verdict::CE, Verdict::JE})
        if (counts[v] > 0) text += ", " + std::to_string(counts[v]) + " " + verdict_name(v);
    return styled_cell(worst_verdict(results), text, 60, colour) + "exit " + std::to_string(exit_status) + "\n";
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
            if (!e.stand_ins.empty()) {
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
    if (capped > 0) text += formatted("; in %d run(s) the stand-in cost more than its length explains, and was capped", capped);
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

nlohmann::json report_json(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto &r : results) {
        nlohmann::json c = r;
        c["error_over_bound"] = error_over_bound(r);
        if (r.timing) c["gflops"] = gflops(flop_count(r.M, r.N, r.K), r.timing->stats.median_ms);
        if (r.timing && r.baseline) c["fraction_of_cublas"] = r.baseline->stats.median_ms / r.timing->stats.median_ms;
        for (const auto &[key, run] : {std::pair{"own_events_cross_check", &r.timing},
                                       std::pair{"cublas_own_events_cross_check", &r.baseline}})
            if (*run)
                if (const auto check = cross_check_events(**run))
                    c[key] = {{"clock_ms", check->clock_ms},
                              {"own_events_ms", check->events_ms},
                              {"tolerance_ms", check->tolerance_ms},
                              {"agree", check->agree}};
        cases.push_back(c);
    }
    std::map<std::string, int> counts;
    for (const auto &r : results) ++counts[verdict_name(r.verdict)];
    return made_valid_utf8(
        {{"solution", run.solution},
         {"compile",
          {{"arch", run.arch},
           {"cached", run.compile.cached},
           {"seconds", run.compile.seconds},
           {"command", run.compile.command},
           {"library", run.compile.library}}},
         {"device", run.device},
         {"cpus", run.cpus},
         {"bounds",
          {{"unit_roundoff", fp32_unit_roundoff},
           {"elementwise", "2·γ_N·(|A||B|)ij"},
           {"normwise", "4·u·√N"},
           {"timed_calls", "Freivalds: |(C·x − A·(B·x))i| ≤ 2·γ_N·(|A|·(|B|·|x|))i·(1+2g) + 2g·((|A|·(|B|·|x|))i + "
                           "(|C|·|x|)i), g = γ64_(N+K+2), for 2 random x ∈ {±1}^K; 1024 sampled elements held to "
                           "the elementwise bound, their normwise error to 3× the normwise bound"}}},
         {"time_budget_s", run.time_budget_s},
         {"correctness_time_budget_s", run.correctness_time_budget_s},
         {"judge_seconds",
          {{"waited_for_gpu", run.timeline.waited_for_gpu_s},
           {"probe", run.timeline.probe_s},
           {"compile", run.timeline.compile_s},
           {"waited_for_referee", run.timeline.waited_for_referee_s},
           {"runner_start", run.timeline.runner_start_s},
           {"cases", run.timeline.cases_s},
           {"total", run.timeline.total_s}}},
         {"cases", cases},
         {"summary",
          {{"counts", counts}, {"worst", verdict_name(worst_verdict(results))}, {"exit_status", exit_status}}}});
}

nlohmann::json made_valid_utf8(nlohmann::json value) {
    if (value.is_string()) return valid_utf8(value.get_ref<const std::string &>());
    if (value.is_array()) {
        for (auto &element : value) element = made_valid_utf8(std::move(element));
        return value;
    }
    if (!value.is_object()) return value;
    nlohmann::json out = nlohmann::json::object();
    for (auto &[key, element] : value.items()) out[valid_utf8(key)] = made_valid_utf8(std::move(element));
    return out;
}

} // namespace gemm
