#include "core/errors.hpp"
#include "core/significance.hpp"
#include "core/stats.hpp"
#include "core/text.hpp"
#include "judge/case_policy.hpp"
#include "judge/history.hpp"
#include "judge/plot_call.hpp"
#include "judge/rank_mode.hpp"
#include "judge/ranked_set.hpp"
#include "judge/session.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

namespace gemm {

namespace {

// One side's timing of one shape: its samples (for the U test) and its round medians
// (two rounds of the same code give the noise floor).
struct SideTiming {
    int M = 0, N = 0, K = 0;
    std::vector<double> samples_ms, round_medians_ms;
};
using Timings = std::map<std::string, SideTiming>; // by case name

// How far two timings of the same code move apart in one run: the largest relative
// difference between the medians of the first two rounds, over every shape of both sides.
// A change of one shape smaller than this is noise, however small its p-value: two
// processes running the same kernel differ by a few tenths of a percent on some shapes.
double run_noise_floor(const Timings &a, const Timings &b) {
    double floor = 0;
    for (const Timings *side : {&a, &b})
        for (const auto &[name, t] : *side)
            if (t.round_medians_ms.size() >= 2)
                floor = std::max(floor, noise_floor(t.round_medians_ms[0], t.round_medians_ms[1]));
    return floor;
}

// A --json report of a judge or rank run, or a history attempt (#ID, whose report it keeps).
// A rank report's noise floor (cuBLAS timed twice) raises `floor`.
Timings timings_of_report(const std::string &side, const JudgeOptions &o, double &floor) {
    nlohmann::json report;
    if (side.rfind('#', 0) == 0) {
        const auto attempt = History::open(o.history_path.empty() ? default_history_path() : o.history_path)
                                 .attempt(std::stoll(side.substr(1)));
        if (!attempt) throw UsageError(side + ": no such attempt in the history");
        report = nlohmann::json::parse(attempt->report_json);
    } else {
        std::ifstream in(side);
        report = nlohmann::json::parse(in, nullptr, false);
        if (report.is_discarded() || !report.contains("cases")) throw UsageError(side + ": not a judge JSON report");
    }
    if (report.contains("rank") && report["rank"].contains("noise_floor"))
        floor = std::max(floor, report["rank"]["noise_floor"].get<double>());
    Timings timings;
    for (const auto &c : report["cases"]) {
        if (c["timing"].is_null() || !c["timing"].contains("samples_ms")) continue;
        SideTiming t{c["M"], c["N"], c["K"], c["timing"]["samples_ms"].get<std::vector<double>>(), {}};
        if (!t.samples_ms.empty()) timings[c["name"].get<std::string>()] = t;
    }
    return timings;
}

struct ShapeComparison {
    std::string name;
    int M, N, K;
    double old_ms, new_ms, speedup, p_value, floor;
    bool significant;
};

std::vector<ShapeComparison> compare_timings(const Timings &old_side, const Timings &new_side, double floor) {
    std::vector<ShapeComparison> rows;
    for (const auto &[name, before] : old_side) {
        const auto after = new_side.find(name);
        if (after == new_side.end()) continue;
        const RankTest test = mann_whitney_u(before.samples_ms, after->second.samples_ms);
        const double old_ms = summarize(before.samples_ms).median_ms,
                     new_ms = summarize(after->second.samples_ms).median_ms;
        rows.push_back({name, before.M, before.N, before.K, old_ms, new_ms, old_ms / new_ms, test.p_value, floor,
                        significant(test.relative_change(), test.p_value, floor)});
    }
    return rows;
}

// Times both solutions shape by shape, old then new, in rounds until both are steady.
std::optional<int> time_live(const JudgeOptions &o, Reporters &report, Timings &old_side, Timings &new_side) {
    const auto ranked = ranked_cases(o);
    Session before(o, report, o.solution), after(o, report, o.other);
    std::unique_ptr<Supervisor> old_worker, new_worker;
    if (const auto status = before.prepare(ranked, old_worker)) return status;
    if (const auto status = after.prepare(ranked, new_worker)) return status;
    report.note("compare: " + o.solution + " (old) and " + o.other + " (new), interleaved shape by shape on " +
                before.context.device.name);
    const RoundRule rule(o.spread_target, o.rank_budget_s);
    int rounds = 0;
    double worst_spread = 1;
    while (rule.wants_more(rounds, worst_spread)) {
        ++rounds;
        worst_spread = 0;
        for (const auto &tc : ranked) {
            for (auto *side : {&old_side, &new_side}) {
                Supervisor &worker = side == &old_side ? *old_worker : *new_worker;
                before.progress.show("compare: round " + std::to_string(rounds) + ", " + tc.name);
                const CaseResult r = worker.run_case(tc, policy_for(tc, o));
                before.progress.clear();
                if (r.verdict != Verdict::AC || !r.timing) {
                    report.case_finished(r, tc, policy_for(tc, o));
                    report.note("compare: " + (side == &old_side ? o.solution : o.other) + " is not AC on " + tc.name);
                    return exit_status_for(r.verdict);
                }
                SideTiming &t = (*side)[tc.name];
                t.M = tc.M;
                t.N = tc.N;
                t.K = tc.K;
                t.samples_ms.insert(t.samples_ms.end(), r.timing->samples_ms.begin(), r.timing->samples_ms.end());
                t.round_medians_ms.push_back(r.timing->stats.median_ms);
                worst_spread = std::max(worst_spread, summarize(t.samples_ms).relative_spread());
            }
        }
    }
    return std::nullopt;
}

} // namespace

int compare(const JudgeOptions &o) {
    Reporters report = reporters_for(o);
    const bool live = std::filesystem::path(o.solution).extension() == ".cu";
    if (live != (std::filesystem::path(o.other).extension() == ".cu")) {
        std::cerr << "judge: compare takes two .cu solutions, or two reports (JSON files or history #IDs)\n";
        return exit_status::usage;
    }
    Timings old_side, new_side;
    double floor = 0;
    try {
        if (live) {
            if (const auto status = time_live(o, report, old_side, new_side)) return *status;
            floor = run_noise_floor(old_side, new_side);
        } else {
            old_side = timings_of_report(o.solution, o, floor);
            new_side = timings_of_report(o.other, o, floor);
        }
    } catch (const UsageError &e) {
        std::cerr << "judge: " << e.what() << "\n";
        return exit_status::usage;
    }
    const auto rows = compare_timings(old_side, new_side, floor);
    if (rows.empty()) {
        std::cerr << "judge: the two sides have no timed case in common\n";
        return exit_status::usage;
    }
    std::string text = formatted("%-28s %12s %12s %10s %10s  %s\n", "case", "old GFLOP/s", "new GFLOP/s", "new/old",
                                 "p-value", "verdict");
    nlohmann::json shapes = nlohmann::json::array();
    for (const auto &r : rows) {
        const double flops = flop_count(r.M, r.N, r.K);
        const char *verdict = !r.significant ? "not significant" : r.speedup > 1 ? "new is faster" : "new is slower";
        text += formatted("%-28s %12.1f %12.1f %9.3f× %10.2g  %s\n", r.name.c_str(), gflops(flops, r.old_ms),
                          gflops(flops, r.new_ms), r.speedup, r.p_value, verdict);
        shapes.push_back({{"name", r.name},
                          {"M", r.M},
                          {"N", r.N},
                          {"K", r.K},
                          {"old_gflops", gflops(flops, r.old_ms)},
                          {"new_gflops", gflops(flops, r.new_ms)},
                          {"speedup", r.speedup},
                          {"p_value", r.p_value},
                          {"noise_floor", r.floor},
                          {"significant", r.significant}});
    }
    text += formatted("noise floor %.2f%%: ", 100 * floor) +
            (live ? "the largest difference between the first two rounds' medians of either side, over the shapes"
                  : "the reports' own (a rank report's: cuBLAS timed twice)");
    text += "\nnew/old: the old median time over the new (above 1: new is faster); p: two-sided Mann–Whitney U over "
            "every call's time; significant when p < 0.05 and the change exceeds the noise floor";
    const nlohmann::json figures = {{"kind", "compare"},    {"title", o.solution + " vs " + o.other},
                                    {"old", o.solution},    {"new", o.other},
                                    {"noise_floor", floor}, {"shapes", shapes}};
    report.finding("compare", figures, text);
    if (!o.plot_path.empty()) {
        draw_plot_and_tell(report, figures, o.plot_path);
    }
    RunContext context;
    context.solution = o.other;
    report.run_finished(context, {}, exit_status::all_accepted);
    return exit_status::all_accepted;
}

} // namespace gemm
