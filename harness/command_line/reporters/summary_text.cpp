#include "command_line/reporters/summary_text.hpp"

#include "common/terminal_text.hpp"
#include "common/text.hpp"
#include "measurement/stats.hpp"
#include "testcases/problem.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace gemm {

namespace {

// A table cell of text from outside (a file name, a GPU's name): control bytes escaped, cut
// to `width` terminal columns and padded to one more (the gap), by columns, not bytes, so a
// non-ASCII name keeps the columns straight.
std::string cell(const std::string &text, std::size_t width) {
    return pad_to_width(truncate_to_width(escape_for_terminal(text), width), width + 1);
}

// "0.160× over 9 ranked": the score and the cases it is over.
std::string shown_score(const Attempt &a) {
    if (!a.geomean_ratio_to_cublas) return "-";
    return formatted("%.3f× over %d %s", *a.geomean_ratio_to_cublas, a.cublas_cases,
                     a.mode == "rank" ? "ranked" : "timed");
}

// "+3.1%", or "(+0.3%)" when the change is inside the noise.
std::string change_text(const std::optional<ScoreChange> &change) {
    if (!change) return "-";
    const std::string percent = formatted("%+.1f%%", 100 * change->relative);
    return change->significant ? percent : "(" + percent + ")";
}

// "2025-06-01 12:34" of "2025-06-01T12:34:56Z": the minute tells attempts apart for a reader.
std::string minute_of(const std::string &time_utc) {
    std::string minute = time_utc.substr(0, 16);
    if (minute.size() > 10 && minute[10] == 'T') minute[10] = ' ';
    return minute;
}

} // namespace

std::string text_of(const NoGpu &x) {
    return x.solution_file + "  compiled for " + (x.arch.empty() ? "nvcc's default target" : x.arch) +
           (x.loaded ? "; " + x.entry + "() found" : "; it could not be loaded: " + x.load_failure);
}

std::string text_of(const ShrinkFinding &x) {
    std::string text = "smallest failing shape: " + shape_text(x.result.smallest) + " (" +
                       std::to_string(x.result.attempts) + " shapes tried)\n";
    if (!x.thresholds_in_words.empty()) text += "  " + x.thresholds_in_words + "\n";
    return text + "  reproduce: " + x.command;
}

std::string text_of(const StressFinding &x) {
    if (x.failed)
        return "stress: shape " + std::to_string(x.shapes_run) + " of " + std::to_string(x.shapes_planned) + " failed";
    return "stress: " + std::to_string(x.shapes_run) + " random shapes up to " + std::to_string(x.max_size) +
           ", seed " + std::to_string(x.seed) + ": all AC";
}

std::string text_of(const ProfileFinding &x) {
    const KernelProfile &p = x.profile;
    const double flop = flop_count(x.shape.M, x.shape.N, x.shape.K, x.shape.batch);
    std::string text = "profile of " + x.case_name + " (Nsight Compute, clocks as found, one call of solve()):\n";
    text += "  kernel " + p.kernel + (p.kernels > 1 ? " and " + std::to_string(p.kernels - 1) + " more" : "") + "\n";
    text += "  duration " + formatted("%.4g ms", p.duration_ms) + "; the judge's median " +
            formatted("%.4g ms", x.judge_median_ms) + " (" +
            formatted("%+.1f%%", x.judge_median_ms > 0 ? 100 * (x.judge_median_ms / p.duration_ms - 1) : 0) + ")\n";
    text += "  " + formatted("%.1f TFLOP/s", flop / (p.duration_ms * 1e9)) + " of 2·M·N·K (" +
            formatted("%.1f TFLOP/s", p.ffma_flop / (p.duration_ms * 1e9)) + " counted in FFMA/FADD/FMUL)\n";
    text += "  SM throughput " + formatted("%.1f%%", p.sm_percent) + ", DRAM throughput " +
            formatted("%.1f%%", p.dram_percent) + ", achieved occupancy " + formatted("%.1f%%", p.occupancy_percent) +
            "\n";
    return text + "  " + formatted("%.0f registers per thread", p.registers) + ", " +
           formatted("%.1f KB shared memory per block", p.shared_bytes / 1e3);
}

std::string text_of(const RankSummary &x) {
    const Score &score = x.score;
    std::string text = "score over " + std::to_string(score.shapes) + " shapes (" + std::to_string(x.rounds) +
                       " rounds, cuBLAS interleaved case by case):\n";
    text += "  geometric mean time  " + formatted("%.3f", score.geomean_ms) + " ms\n";
    if (score.geomean_ratio_to_cublas)
        text += "  vs cuBLAS            " + formatted("%.3f", *score.geomean_ratio_to_cublas) +
                "× (geometric mean of cuBLAS time / yours)\n";
    if (score.percent_of_peak)
        text += "  of the FP32 peak     " + formatted("%.1f", *score.percent_of_peak) + "% of " + score.peak.formula() +
                "\n";
    text += "  noise                " +
            formatted("±%.2f%%: the score's 99%% interval is %.3f–%.3f×", 100 * x.noise.relative_half_width(),
                      x.noise.low, x.noise.high) +
            "\n                       (a bootstrap over the rounds and calls of both sides, every shape)";
    if (x.budget_spent)
        text += "\n  the time budget ran out with a spread of " + formatted("%.1f%%", 100 * x.worst_spread) +
                " on one shape";
    return text;
}

std::string text_of(const CompareSummary &x) {
    std::string text = formatted("%-28s %12s %12s %9s  ", "case", "old GFLOP/s", "new GFLOP/s", "new/old") +
                       pad_to_width("interval", 14) + formatted("%9s  %s\n", "p-value", "verdict");
    bool raw_compared = false;
    for (const ComparedShape &r : x.shapes) {
        const double flops = flop_count(r.shape.M, r.shape.N, r.shape.K, r.shape.batch);
        const char *verdict = !r.significant        ? "not significant"
                              : r.speedup.ratio > 1 ? "new is faster"
                                                    : "new is slower";
        text += formatted("%-28s %12.1f %12.1f %8.3f×  ", r.name.c_str(), gflops(flops, r.old_ms),
                          gflops(flops, r.new_ms), r.speedup.ratio) +
                pad_to_width(formatted("%.3f–%.3f", r.speedup.low, r.speedup.high), 14) +
                formatted("%9.2g  %s\n", r.p_value, verdict);
        raw_compared = raw_compared || r.on_raw_times;
    }
    const double level = x.shapes.empty() ? x.family_level : x.shapes.front().speedup.level;
    text +=
        "new/old: the old median time over the new (above 1: new is faster).\n" +
        formatted("interval: of new/old, at %.0f%% for all %zu shape(s) together (%.2f%% each, Bonferroni), from a ",
                  100 * x.family_level, x.shapes.size(), 100 * level) +
        "bootstrap over " +
        std::string(x.live ? "the rounds, paired (round r of both sides ran back to back), and calls of both sides"
                           : "each report's rounds (a judge report has one) and calls") +
        " (./judge compare --help).\np: two-sided Mann–Whitney U over every call's time.\nsignificant: the "
        "interval excludes 1 and p < 0.05.";
    if (raw_compared)
        text += "\ntimes: the clock's, compared as measured; one cost of the path, the median of both sides' "
                "measurements, is taken off both for the figures above, so neither side's own measurement of it "
                "can make a difference.";
    return text;
}

// One attempt's row of the history's table.
std::string history_row_text(const HistoryRow &row) {
    const Attempt &a = row.attempt;
    return formatted("%-4lld %-16s %-5s %s%s%-3s %s %s%s\n", a.id, minute_of(a.time_utc).c_str(), a.mode.c_str(),
                     cell(a.solution_name, 16).c_str(), cell(a.gpu_name, 12).c_str(), a.worst_verdict.c_str(),
                     pad_to_width(shown_score(a), 20).c_str(), pad_to_width(change_text(row.since_previous), 9).c_str(),
                     change_text(row.since_best).c_str());
}

std::string text_of(const HistoryList &x) {
    // Attempts at other problems than the default one are listed under their problem's name,
    // each problem's in the order they were made: scores of two problems never compare.
    std::vector<std::string> problems;
    for (const HistoryRow &row : x.rows)
        if (std::find(problems.begin(), problems.end(), row.attempt.problem) == problems.end())
            problems.push_back(row.attempt.problem);
    const bool by_problem = problems.size() > 1 || (problems.size() == 1 && problems[0] != default_problem().name);
    std::string text = formatted("%-4s %-16s %-5s %-16s %-12s %-3s %-20s %-8s %s\n", "id", "time (UTC)", "mode",
                                 "solution", "GPU", "", "score (vs cuBLAS)", "vs last", "vs best");
    if (!by_problem)
        for (const HistoryRow &row : x.rows) text += history_row_text(row);
    else
        for (const std::string &problem : problems) {
            text += wrap_to_width("problem " + escape_for_terminal(problem) + ":", console_width, 2) + "\n";
            for (const HistoryRow &row : x.rows)
                if (row.attempt.problem == problem) text += history_row_text(row);
        }
    return text + "After the GPU, the worst verdict. score: the geometric mean of cuBLAS time / yours (×)\n"
                  "over the cases timed against cuBLAS: the ranked set in a rank run, the perf cases (or\n"
                  "--baseline's) in a judge run, counted; - when none was or a case is not AC.\n"
                  "vs last, vs best: the score's change since the solution's previous attempt and since its best;\n"
                  "in parentheses when inside the noise (a rank run's: its score's 99% interval; 1% when unknown)";
}

std::string text_of(const Leaderboard &x) {
    std::string text = wrap_to_width("leaderboard on " + escape_for_terminal(x.gpu) + ", problem " +
                                         escape_for_terminal(x.problem) + " (best ranked attempt of each solution):",
                                     console_width, 2) +
                       "\n";
    text += formatted("%-4s %-24s %-10s %-12s %-12s %-6s %s", "#", "solution", "vs cuBLAS", "of FP32 peak", "geomean",
                      "id", "time (UTC)");
    int place = 0;
    for (const Attempt &a : x.places)
        text +=
            "\n" +
            formatted("%-4d %s%s%-12s %-12s %-6lld %s", ++place, cell(a.solution_name, 24).c_str(),
                      pad_to_width(a.geomean_ratio_to_cublas ? formatted("%.3f×", *a.geomean_ratio_to_cublas) : "-", 11)
                          .c_str(),
                      a.percent_of_peak ? formatted("%.1f%%", *a.percent_of_peak).c_str() : "-",
                      a.geomean_ms ? formatted("%.3g ms", *a.geomean_ms).c_str() : "-", a.id, a.time_utc.c_str());
    return text;
}

} // namespace gemm
