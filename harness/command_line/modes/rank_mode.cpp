#include "command_line/modes/rank_mode.hpp"
#include "verification/run_score.hpp"
#include "measurement/significance.hpp"
#include "measurement/stats.hpp"
#include "common/text.hpp"
#include "command_line/modes/ranked_set.hpp"
#include "command_line/reporters/plot_call.hpp"
#include "judging/case_policy.hpp"
#include "command_line/modes/profile.hpp"
#include "command_line/modes/session.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

namespace gemm {

namespace {

struct RankedShape {
    TestCase testcase;
    PooledTiming solution, cublas;
    CaseResult last; // the latest round's result, for the verdict and the row
};

nlohmann::json sizes_of(const Rounds &rounds) {
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto &round : rounds) sizes.push_back(round.size());
    return sizes;
}

// The figures of a ranked run, for --json and for report/plot.py (kind "rank"). A row's
// round_sizes split its case's samples_ms back into rounds (compare of two reports).
nlohmann::json rank_figures(const std::vector<RankedShape> &shapes, const std::vector<CaseResult> &results,
                            const RunContext &run, const Score &score, const RatioInterval &noise, int rounds) {
    nlohmann::json rows = nlohmann::json::array(), plot_shapes = nlohmann::json::array(),
                   per_shape_gflops = nlohmann::json::object();
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const CaseResult &r = results[i];
        const double flops = flop_count(r.M, r.N, r.K);
        const double cublas_gflops = gflops(flops, r.baseline->stats.median_ms);
        const double own_gflops = gflops(flops, r.timing->stats.median_ms);
        rows.push_back({{"name", r.name},
                        {"M", r.M},
                        {"N", r.N},
                        {"K", r.K},
                        {"median_ms", r.timing->stats.median_ms},
                        {"spread", r.timing->stats.relative_spread()},
                        {"gflops", own_gflops},
                        {"cublas_gflops", cublas_gflops},
                        {"ratio_to_cublas", r.baseline->stats.median_ms / r.timing->stats.median_ms},
                        {"round_sizes", sizes_of(shapes[i].solution.rounds_ms)}});
        plot_shapes.push_back({{"name", r.name}, {"M", r.M}, {"N", r.N}, {"K", r.K}, {"cublas_gflops", cublas_gflops}});
        per_shape_gflops[r.name] = own_gflops;
    }
    const std::string name = std::filesystem::path(run.solution).stem().string();
    return {{"kind", "rank"},
            {"title", name + " on the ranked set"},
            {"gpu", run.device.name},
            {"shapes", plot_shapes},
            {"solutions", nlohmann::json::array({{{"name", name}, {"gflops", per_shape_gflops}}})},
            {"peak_gflops", score.peak.gflops()},
            {"peak_formula", score.peak.formula()},
            {"rows", rows},
            {"rounds", rounds},
            {"noise_floor", noise.relative_half_width()},
            {"score_interval", {noise.low, noise.high}},
            {"noise_method", ratio_interval_method},
            {"score",
             {{"geomean_ms", score.geomean_ms},
              {"geomean_ratio_to_cublas", score.geomean_ratio_to_cublas.value_or(0)},
              {"percent_of_peak", score.percent_of_peak.value_or(0)}}}};
}

std::string score_text(const Score &score, const RatioInterval &noise, int rounds, bool budget_spent,
                       double worst_spread) {
    std::string text = "score over " + std::to_string(score.shapes) + " shapes (" + std::to_string(rounds) +
                       " rounds, cuBLAS interleaved case by case):\n";
    text += "  geometric mean time  " + formatted("%.3f", score.geomean_ms) + " ms\n";
    if (score.geomean_ratio_to_cublas)
        text += "  vs cuBLAS            " + formatted("%.3f", *score.geomean_ratio_to_cublas) +
                "× (geometric mean of cuBLAS time / yours)\n";
    if (score.percent_of_peak)
        text += "  of the FP32 peak     " + formatted("%.1f", *score.percent_of_peak) + "% of " + score.peak.formula() +
                "\n";
    text += "  noise                " +
            formatted("±%.2f%%: the score's 99%% interval is %.3f–%.3f×", 100 * noise.relative_half_width(), noise.low,
                      noise.high) +
            " (a bootstrap over the rounds and calls of both sides, every shape)";
    if (budget_spent)
        text +=
            "\n  the time budget ran out with a spread of " + formatted("%.1f%%", 100 * worst_spread) + " on one shape";
    return text;
}

} // namespace

int rank(const JudgeOptions &o) {
    Reporters report = reporters_for(o);
    std::vector<TestCase> suite, ranked;
    try {
        suite = selected_cases(o);
        ranked = ranked_cases(o);
    } catch (const TestcaseError &e) {
        std::cerr << e.what() << "\njudge: JE: the testcases are invalid; nothing was ranked\n";
        return exit_status::judge_error;
    }
    Session session(o, report, o.solution);
    std::unique_ptr<Supervisor> supervisor;
    if (const auto status = session.prepare(suite, supervisor, ranked)) return *status;
    report.run_started(session.context);
    // A score is only for a solution that is right everywhere.
    const std::vector<CaseResult> checked = session.judge_cases(*supervisor, suite);
    if (worst_verdict(checked) != Verdict::AC) {
        report.note("rank: no score: the solution is not AC on every case of the suite (above)");
        return session.finish(checked);
    }
    report.note("suite: " + std::to_string(checked.size()) + "/" + std::to_string(checked.size()) +
                " AC; the ranked set, with cuBLAS in the same run:");
    std::vector<RankedShape> shapes;
    for (const auto &tc : ranked) shapes.push_back({tc, {}, {}, {}});
    // Every ranked shape is timed with cuBLAS, whatever --baseline says.
    const auto ranked_policy = [&](const TestCase &tc) {
        CasePolicy policy = policy_for(tc, o.case_run);
        policy.baseline = true;
        return policy;
    };
    const RoundRule rule(o.spread_target, o.rank_budget_s);
    const RoundsRun run =
        run_rounds(ranked, rule, session.progress, "rank", [&](std::size_t i) -> std::optional<double> {
            RankedShape &shape = shapes[i];
            shape.last = supervisor->run_case(shape.testcase, ranked_policy(shape.testcase));
            if (shape.last.verdict != Verdict::AC || !shape.last.timing || !shape.last.baseline) return std::nullopt;
            shape.solution.add(*shape.last.timing);
            shape.cublas.add(*shape.last.baseline);
            return shape.solution.spread();
        });
    if (run.failed_case) {
        const RankedShape &shape = shapes[*run.failed_case];
        report.case_finished(shape.last, shape.testcase, ranked_policy(shape.testcase));
        report.note("rank: no score: " + shape.testcase.name + " failed in round " + std::to_string(run.rounds));
        return session.finish({shape.last});
    }
    std::vector<CaseResult> results;
    std::vector<std::pair<Rounds, Rounds>> solution_and_cublas;
    for (auto &shape : shapes) {
        CaseResult r = shape.last;
        r.timing = shape.solution.timed_run();
        r.baseline = shape.cublas.timed_run();
        report.case_finished(r, shape.testcase, policy_for(shape.testcase, o.case_run));
        solution_and_cublas.emplace_back(shape.solution.rounds_ms, shape.cublas.rounds_ms);
        results.push_back(r);
    }
    const auto score = score_of(results, session.context.device);
    if (!score) {
        report.note("rank: no score (no timed shape)");
        return session.finish(results);
    }
    // How far noise could move the score: every round of every shape, both sides.
    const RatioInterval noise = geomean_ratio_interval(solution_and_cublas);
    const nlohmann::json figures = rank_figures(shapes, results, session.context, *score, noise, run.rounds);
    report.finding("rank", figures, score_text(*score, noise, run.rounds, rule.budget_spent(), run.worst_spread));
    if (!o.plot_path.empty()) {
        draw_plot_and_tell(report, figures, o.plot_path);
    }
    if (!o.profile_case.empty()) {
        const auto it = std::find_if(results.begin(), results.end(),
                                     [&](const CaseResult &r) { return case_selected(r.name, o.profile_case); });
        if (it == results.end())
            report.note("profile: no ranked case is called " + o.profile_case);
        else
            profile_case(session, shapes[it - results.begin()].testcase, *it);
    }
    return session.finish(results);
}

} // namespace gemm
