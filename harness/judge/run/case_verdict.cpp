#include "judge/run/case_verdict.hpp"

namespace gemm {

namespace {

Verdict verdict_of(CaseEnding ending) {
    switch (ending) {
    case CaseEnding::NotCompiled: return Verdict::CE;
    case CaseEnding::NotStarted: return Verdict::RE;
    case CaseEnding::CallOverran: return Verdict::TLE;
    case CaseEnding::JudgeFailed:
    case CaseEnding::Reported: break;
    }
    return Verdict::JE;
}

} // namespace

CaseFacts ended_early(CaseEnding ending, std::string why) {
    CaseFacts facts;
    facts.ending = ending;
    facts.why = std::move(why);
    return facts;
}

CaseResult decide_case(const TestCase &tc, CaseFacts facts) {
    CaseResult r;
    if (facts.ending == CaseEnding::Reported) {
        r = std::move(facts.reported);
        if (r.runner_lost) r.detail = facts.runner_end;
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
    if (!facts.attempts.empty()) {
        // What it tried is named whatever else happened; a blocked attempt is never AC.
        if (r.verdict == Verdict::AC || r.verdict == Verdict::WA) r.verdict = Verdict::RE;
        r.detail = facts.attempts + (r.detail.empty() ? "" : "; " + r.detail);
    }
    r.name = tc.name;
    r.M = tc.M;
    r.N = tc.N;
    r.K = tc.K;
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
