#include "command_line/modes/rank_mode.hpp"
#include "command_line/modes/profile.hpp"
#include "command_line/modes/ranked_set.hpp"
#include "command_line/modes/session.hpp"
#include "common/text.hpp"
#include "judging/case_policy.hpp"
#include "measurement/significance.hpp"
#include "measurement/stats.hpp"
#include "verification/run_score.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace gemm {

namespace {

struct RankedShape {
    TestCase testcase;
    PooledTiming solution, cublas;
    CaseResult last; // the latest round's result, for the verdict and the row
};

std::vector<std::size_t> sizes_of(const Rounds &rounds) {
    std::vector<std::size_t> sizes;
    for (const auto &round : rounds) sizes.push_back(round.size());
    return sizes;
}

} // namespace

int rank(const JudgeOptions &options) {
    Reporters report = reporters_for(options);
    std::vector<TestCase> suite, ranked;
    try {
        suite = selected_cases(options);
        ranked = ranked_cases(options);
    } catch (const TestcaseError &e) {
        std::cerr << e.what() << "\njudge: JE: the testcases are invalid; nothing was ranked\n";
        return exit_status::judge_error;
    }
    Session session(options, report, options.solution);
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
        CasePolicy policy = policy_for(tc, options.case_run);
        policy.baseline = true;
        return policy;
    };
    const SpreadRule rule(options.rounds.spread_target, options.rounds.budget_s);
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
    RankSummary summary;
    for (auto &shape : shapes) {
        CaseResult r = shape.last;
        r.timing = shape.solution.timed_run();
        r.baseline = shape.cublas.timed_run();
        report.case_finished(r, shape.testcase, policy_for(shape.testcase, options.case_run));
        solution_and_cublas.emplace_back(shape.solution.rounds_ms, shape.cublas.rounds_ms);
        summary.rows.push_back({r, sizes_of(shape.solution.rounds_ms)});
        results.push_back(r);
    }
    const auto score = score_of(results, session.context.device);
    if (!score) {
        report.note("rank: no score (no timed shape)");
        return session.finish(results);
    }
    summary.solution = session.context.solution;
    summary.gpu = session.context.device.name;
    summary.score = *score;
    // How far noise could move the score: every round of every shape, both sides.
    summary.noise = geomean_ratio_interval(solution_and_cublas);
    summary.rounds = run.rounds;
    summary.budget_spent = run.budget_spent;
    summary.worst_spread = run.worst_spread;
    report.ranked(summary);
    if (!options.rounds.profile_case.empty()) {
        const auto it = std::find_if(results.begin(), results.end(), [&](const CaseResult &r) {
            return case_selected(r.name, options.rounds.profile_case);
        });
        if (it == results.end())
            report.note("profile: no ranked case is called " + options.rounds.profile_case);
        else
            profile_case(session, shapes[it - results.begin()].testcase, *it);
    }
    return session.finish(results);
}

} // namespace gemm
