#include "command_line/history/history.hpp"
#include "command_line/modes/rank_mode.hpp"
#include "command_line/modes/session.hpp"
#include "command_line/reporters/console_reporter.hpp"
#include "command_line/reporters/json_reporter.hpp"
#include "command_line/reporters/junit_reporter.hpp"
#include "command_line/reporters/reporter_set.hpp"
#include "judging/os/process.hpp"
#include "verification/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

namespace gemm {

namespace {

std::string history_file(const JudgeOptions &options) {
    return options.history.path.empty() ? default_history_path() : options.history.path;
}

// The history to read, or nothing (and it said so) when there is none yet: reading never
// creates the file. A damaged one is set aside and a new one started, said in one line.
std::optional<History> open_history(const JudgeOptions &options, Reporters &report, const std::string &what) {
    const std::string path = history_file(options);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
        report.note(what + ": no history yet: " + path +
                    " does not exist (every judge and rank run is recorded there)");
        return std::nullopt;
    }
    History history =
        History::open(path, options.history.path.empty() ? HistoryPlace::default_place : HistoryPlace::named);
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

// The change of score from `then` to `now`, significant when outside the noise of both
// attempts (a rank run's score interval; 1% when unknown).
ScoreChange change(const Attempt &now, const Attempt &then) {
    const double floor = std::max(now.noise_floor.value_or(0.01), then.noise_floor.value_or(0.01));
    const double relative = *speed(now) / *speed(then) - 1;
    return {relative, std::fabs(relative) > floor};
}

// A solution named on the command line: the path it is recorded under when the file
// exists (through links: command_line/history/history.hpp), else a name or a content hash as given.
std::string solution_key(const std::string &solution) {
    std::error_code ec;
    return std::filesystem::is_regular_file(solution, ec) ? recorded_solution_path(solution) : solution;
}

} // namespace

int show_history(const JudgeOptions &options) {
    Reporters report = reporters_for(options);
    try {
        auto history = open_history(options, report, "history");
        if (!history) return 0;
        AttemptFilter filter;
        if (!options.solution.empty()) filter.solution = solution_key(options.solution);
        if (!options.selection.problem.empty()) filter.problem = options.selection.problem;
        const auto attempts = read_or_start_over(*history, [&] { return history->attempts(filter); });
        if (attempts.empty()) {
            report.note("history: no attempt recorded" + (options.solution.empty() ? "" : " for " + options.solution) +
                        " in " + history->path());
            return 0;
        }
        HistoryList list;
        list.solution = options.solution;
        // Previous and best within one solution, GPU model, mode and problem: nothing else compares.
        std::map<std::string, std::pair<const Attempt *, const Attempt *>> seen;
        for (const auto &a : attempts) {
            HistoryRow row{a, std::nullopt, std::nullopt};
            auto &[last, top] = seen[a.solution_path + "|" + a.gpu_name + "|" + a.mode + "|" + a.problem];
            if (speed(a)) {
                if (last) row.since_previous = change(a, *last);
                if (top) row.since_best = change(a, *top);
                last = &a;
                if (!top || *speed(a) > *speed(*top)) top = &a;
            }
            list.rows.push_back(std::move(row));
        }
        report.history_listed(list);
    } catch (const HistoryError &e) {
        std::cerr << "judge: " << e.what() << "\n";
        return exit_status::setup;
    }
    return 0;
}

int show_leaderboard(const JudgeOptions &options) {
    Reporters report = reporters_for(options);
    try {
        auto history = open_history(options, report, "leaderboard");
        if (!history) return 0;
        const auto kept = read_or_start_over(*history, [&] { return history->boards(); });
        if (kept.empty()) report.note("leaderboard: no attempt recorded in " + history->path());
        Leaderboards boards;
        for (const auto &[gpu, problem] : kept) {
            if (!options.selection.problem.empty() && problem != options.selection.problem) continue;
            auto places = history->leaderboard(gpu, problem);
            if (!places.empty()) boards.boards.push_back({gpu, problem, std::move(places)});
        }
        report.leaderboards_listed(boards);
    } catch (const HistoryError &e) {
        std::cerr << "judge: " << e.what() << "\n";
        return exit_status::setup;
    }
    return 0;
}

} // namespace gemm
