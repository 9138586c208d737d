#include "verification/case_verdict.hpp"
#include "verification/timed_check.hpp"

namespace gemm {

namespace {

Verdict verdict_of(SupervisorSaw ending) {
    switch (ending) {
    case SupervisorSaw::NotCompiled: return Verdict::CE;
    case SupervisorSaw::NotStarted:
    case SupervisorSaw::FolderOverfilled: return Verdict::RE;
    case SupervisorSaw::CallOverran: return Verdict::TLE;
    case SupervisorSaw::JudgeSideFailed:
    case SupervisorSaw::RefereeReported: break;
    }
    return Verdict::JE;
}

// The referee's facts of a case it ran to its end, or failed on, in one judgement.
Judgement judge_referee_facts(const Shape &shape, const CaseResult &reported, const std::string &runner_end) {
    const RefereeFacts &facts = reported.facts;
    switch (facts.ending) {
    case RefereeWork::SolutionFailed: return {Verdict::RE, reported.runner_lost ? runner_end : facts.why};
    case RefereeWork::RefereeFailed: return {Verdict::JE, facts.why};
    case RefereeWork::Completed: break;
    }
    if (!reported.check || !facts.checked_integrity)
        return {Verdict::JE, "the referee's result holds no check of the output"};
    const Judgement checked = judge_output(*reported.check, *facts.checked_integrity);
    if (checked.verdict != Verdict::AC || !facts.failed_timed_call) return checked;
    const FailedTimedCall &failed = *facts.failed_timed_call;
    const Judgement timed = failed.full ? judge_output(*failed.full, failed.check.integrity)
                                        : judge_timed_call(failed.check, reported.check->precision, shape.N,
                                                           static_cast<long long>(shape.M) * shape.K);
    if (timed.verdict == Verdict::AC)
        return {Verdict::JE, "the referee stopped at timed call " + std::to_string(failed.call) +
                                 ", whose checks pass: the two sides disagree"};
    return {timed.verdict, "output of timed call " + std::to_string(failed.call) +
                               " (fresh inputs, as every call gets): " + timed.detail};
}

} // namespace

CaseFacts ended_early(SupervisorSaw ending, std::string why) {
    CaseFacts facts;
    facts.ending = ending;
    facts.why = std::move(why);
    return facts;
}

CaseResult decide_case(const std::string &name, const Shape &shape, CaseFacts facts) {
    CaseResult r;
    if (facts.ending == SupervisorSaw::RefereeReported) {
        r = std::move(facts.reported);
        const Judgement j = judge_referee_facts(shape, r, facts.runner_end);
        r.verdict = j.verdict;
        r.detail = j.detail;
        if (facts.impossible_timing) {
            // A time faster than the GPU allows is the judge's doubt, never a figure to print.
            r.verdict = Verdict::JE;
            r.detail = *facts.impossible_timing;
            r.timing.reset();
            r.baseline.reset();
        }
    } else {
        r.verdict = verdict_of(facts.ending);
        r.detail = std::move(facts.why);
    }
    if (facts.folder_overfilled && r.verdict != Verdict::CE) {
        r.verdict = Verdict::RE;
        r.detail = *facts.folder_overfilled + (r.detail.empty() ? "" : "; " + r.detail);
    }
    if (!facts.attempts.empty()) {
        // What it tried is named whatever else happened; a blocked attempt is never AC.
        if (r.verdict == Verdict::AC || r.verdict == Verdict::WA) r.verdict = Verdict::RE;
        r.detail = facts.attempts + (r.detail.empty() ? "" : "; " + r.detail);
    }
    r.name = name;
    r.M = shape.M;
    r.N = shape.N;
    r.K = shape.K;
    r.batch = shape.batch;
    return r;
}

void add_sanitizer_run(CaseResult &so_far, const std::string &tool, const CaseResult &run,
                       const std::optional<std::string> &finding) {
    if (finding && so_far.verdict != Verdict::RE) {
        so_far.verdict = Verdict::RE;
        so_far.detail = *finding;
    } else if (!finding && worse(so_far.verdict, run.verdict) != so_far.verdict) {
        so_far.verdict = run.verdict;
        so_far.detail = tool + " run: " + run.detail;
    }
}

} // namespace gemm
