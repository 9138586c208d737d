#include "common/terminal_text.hpp"
#include "common/text.hpp"
#include "verification/verdict.hpp"
#include "command_line/history/history.hpp"
#include "command_line/modes/rank_mode.hpp"
#include "judging/os/process.hpp"
#include "command_line/reporters/plot_call.hpp"
#include "command_line/reporters/reporter.hpp"
#include "command_line/modes/session.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace gemm {

namespace {

// A table cell of text from outside (a file name, a GPU's name): control bytes escaped, cut
// to `width` terminal columns and padded to one more (the gap), by columns, not bytes, so a
// non-ASCII name keeps the columns straight.
std::string cell(const std::string &text, std::size_t width) {
    return pad_to_width(truncate_to_width(escape_for_terminal(text), width), width + 1);
}

std::string history_file(const JudgeOptions &o) {
    return o.history_path.empty() ? default_history_path() : o.history_path;
}

// The history to read, or nothing (and it said so) when there is none yet: reading never
// creates the file. A damaged one is set aside and a new one started, said in one line.
std::optional<History> open_history(const JudgeOptions &o, Reporters &report, const std::string &what) {
    const std::string path = history_file(o);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        report.note(what + ": no history yet: " + path +
                    " does not exist (every judge and rank run is recorded there)");
        return std::nullopt;
    }
    History history = History::open(path, o.history_path.empty() ? HistoryPlace::default_place : HistoryPlace::named);
    if (!history.recovery_note().empty()) std::cerr << history.recovery_note() << "\n";
    return history;
}

// Runs a query; when it finds the file damaged past its header, the file is set aside and
// the query runs again on the new, empty history.
template <typename Query> auto read_or_start_over(History &history, Query query) {
    try {
        return query();
    } catch (const DamagedHistory &damage) {
        history.start_over(damage.what());
        std::cerr << history.recovery_note() << "\n";
        return query();
    }
}

// The score an attempt is compared by: its speed against cuBLAS, steady under a changing
// clock, over the cases that were timed against cuBLAS. A judge run without one (recorded
// by an older judge as a geometric-mean time over every case, 1×1×1 ones included) has none.
std::optional<double> speed(const Attempt &a) { return a.geomean_ratio_to_cublas; }

// "0.160× over 9 ranked": the score and the cases it is over.
std::string shown_score(const Attempt &a) {
    if (!a.geomean_ratio_to_cublas) return "-";
    return formatted("%.3f× over %d %s", *a.geomean_ratio_to_cublas, a.cublas_cases,
                     a.mode == "rank" ? "ranked" : "timed");
}

// "+3.1%", with "(not significant)" when the change is inside the noise floor.
std::string change(double now, double then, double floor) {
    const double relative = now / then - 1;
    std::string text = formatted("%+.1f%%", 100 * relative);
    if (std::fabs(relative) <= floor) text += " (not significant)";
    return text;
}

// A solution named on the command line: the path it is recorded under when the file
// exists (through links: command_line/history/history.hpp), else a name or a content hash as given.
std::string solution_key(const std::string &solution) {
    std::error_code ec;
    return std::filesystem::is_regular_file(solution, ec) ? recorded_solution_path(solution) : solution;
}

} // namespace

int show_history(const JudgeOptions &o) {
    Reporters report = reporters_for(o);
    try {
        auto history = open_history(o, report, "history");
        if (!history) return 0;
        AttemptFilter filter;
        if (!o.solution.empty()) filter.solution = solution_key(o.solution);
        const auto attempts = read_or_start_over(*history, [&] { return history->attempts(filter); });
        if (attempts.empty()) {
            report.note("history: no attempt recorded" + (o.solution.empty() ? "" : " for " + o.solution) + " in " +
                        history->path());
            return 0;
        }
        std::string text = formatted("%-5s %-20s %-6s %-22s %-20s %-7s %-21s %-28s %s\n", "id", "time (UTC)", "mode",
                                     "solution", "GPU", "verdict", "score (vs cuBLAS)", "since previous", "since best");
        // Previous and best within one solution, GPU model and mode: nothing else compares.
        std::map<std::string, std::pair<const Attempt *, const Attempt *>> seen;
        nlohmann::json points = nlohmann::json::array();
        for (const auto &a : attempts) {
            const auto score = speed(a);
            std::string previous = "-", best = "-";
            auto &[last, top] = seen[a.solution_path + "|" + a.gpu_name + "|" + a.mode];
            if (score) {
                const double floor = a.noise_floor.value_or(0.01);
                if (last) previous = change(*score, *speed(*last), std::max(floor, last->noise_floor.value_or(0.01)));
                if (top) best = change(*score, *speed(*top), std::max(floor, top->noise_floor.value_or(0.01)));
                last = &a;
                if (!top || *score > *speed(*top)) top = &a;
                points.push_back({{"time", a.time_utc}, {"solution", a.solution_name}, {"score", *score}});
            }
            const std::string shown = shown_score(a);
            text += formatted("%-5lld %-20s %-6s %s%s%-7s %s %s%s\n", a.id, a.time_utc.c_str(), a.mode.c_str(),
                              cell(a.solution_name, 22).c_str(), cell(a.gpu_name, 20).c_str(),
                              a.worst_verdict.c_str(), pad_to_width(shown, 21).c_str(),
                              pad_to_width(previous, 29).c_str(), best.c_str());
        }
        text += "score: the geometric mean of cuBLAS time / yours (×) over the cases timed against cuBLAS: the "
                "ranked set in a rank run, the perf cases (or --baseline's) in a judge run, counted; - when none "
                "was or a case is not AC.\nA change inside the noise (a rank run's: its score's 99% interval; 1% "
                "when unknown) is not significant";
        const nlohmann::json figures = {{"kind", "history"},
                                        {"title", "attempts" + (o.solution.empty() ? "" : " of " + o.solution)},
                                        {"metric", "geomean_ratio_to_cublas"},
                                        {"attempts", points}};
        report.finding("history", figures, text);
        if (!o.plot_path.empty()) {
            draw_plot_and_tell(report, figures, o.plot_path);
        }
    } catch (const HistoryError &e) {
        std::cerr << "judge: " << e.what() << "\n";
        return exit_status::setup;
    }
    return 0;
}

int show_leaderboard(const JudgeOptions &o) {
    Reporters report = reporters_for(o);
    try {
        auto history = open_history(o, report, "leaderboard");
        if (!history) return 0;
        std::set<std::string> gpus;
        for (const auto &a : read_or_start_over(*history, [&] { return history->attempts({}); }))
            gpus.insert(a.gpu_name);
        if (gpus.empty()) report.note("leaderboard: no attempt recorded in " + history->path());
        nlohmann::json boards = nlohmann::json::object();
        for (const auto &gpu : gpus) {
            const auto board = history->leaderboard(gpu);
            if (board.empty()) continue;
            std::string text = "leaderboard on " + gpu + " (best ranked attempt of each solution):\n";
            text += formatted("%-4s %-24s %-10s %-12s %-12s %-6s %s\n", "#", "solution", "vs cuBLAS", "of FP32 peak",
                              "geomean", "id", "time (UTC)");
            nlohmann::json rows = nlohmann::json::array();
            int place = 0;
            for (const auto &a : board) {
                text += formatted(
                    "%-4d %s%s%-12s %-12s %-6lld %s\n", ++place, cell(a.solution_name, 24).c_str(),
                    pad_to_width(a.geomean_ratio_to_cublas ? formatted("%.3f×", *a.geomean_ratio_to_cublas) : "-", 11)
                        .c_str(),
                    a.percent_of_peak ? formatted("%.1f%%", *a.percent_of_peak).c_str() : "-",
                    a.geomean_ms ? formatted("%.3g ms", *a.geomean_ms).c_str() : "-", a.id, a.time_utc.c_str());
                rows.push_back({{"solution", a.solution_path},
                                {"attempt", a.id},
                                {"geomean_ratio_to_cublas", a.geomean_ratio_to_cublas.value_or(0)},
                                {"percent_of_peak", a.percent_of_peak.value_or(0)}});
            }
            boards[gpu] = rows;
            report.note(text.substr(0, text.size() - 1));
        }
        report.finding("leaderboard", boards, "");
    } catch (const HistoryError &e) {
        std::cerr << "judge: " << e.what() << "\n";
        return exit_status::setup;
    }
    return 0;
}

} // namespace gemm
