// The judge's side of a case's verdict, from facts alone (verification/case_verdict.hpp): how
// the run ended, the referee's result, what the confinement blocked, an impossible time.
#include <doctest/doctest.h>

#include "test_support.hpp"
#include "verification/case_verdict.hpp"

using namespace gemm;

namespace {

TestCase primes() {
    TestCase tc;
    tc.name = "secret/04-primes";
    tc.M = 127;
    tc.N = 131;
    tc.K = 137;
    return tc;
}

// A case's result as the judge's side has decided it (what --sanitize folds).
CaseResult reported(Verdict verdict) {
    CaseResult r;
    r.verdict = verdict;
    r.timing = TimedRun{};
    r.baseline = TimedRun{};
    return r;
}

// The referee's facts of a case it ran to its end: the checked call's output check and a
// clean integrity check, timed.
CaseResult completed(const OutputCheck &check = {}) {
    CaseResult r;
    r.facts.ending = RefereeWork::Completed;
    r.check = check;
    r.facts.checked_integrity = IntegrityCheck{};
    r.timing = TimedRun{};
    r.baseline = TimedRun{};
    return r;
}

OutputCheck unwritten_elements(long long count, long long of) {
    OutputCheck c;
    c.elements = of;
    c.unwritten = count;
    c.first_unwritten = BadElement{0, 0, 1.0, 0.0, 1e-6};
    return c;
}

} // namespace

TEST_CASE("each way a run ends without the referee's result has its verdict and keeps its why") {
    const struct {
        SupervisorSaw ending;
        Verdict verdict;
    } endings[] = {{SupervisorSaw::NotCompiled, Verdict::CE},
                   {SupervisorSaw::NotStarted, Verdict::RE},
                   {SupervisorSaw::CallOverran, Verdict::TLE},
                   {SupervisorSaw::FolderOverfilled, Verdict::RE},
                   {SupervisorSaw::JudgeSideFailed, Verdict::JE}};
    for (const auto &e : endings) {
        const CaseResult r = decide_case(primes().name, shape_of(primes()), ended_early(e.ending, "because"));
        CHECK(r.verdict == e.verdict);
        CHECK(r.detail == "because");
    }
}

TEST_CASE("the referee's facts decide, by the check's own rule, with the case's identity stamped from the testcase") {
    CaseFacts facts;
    facts.reported = completed(unwritten_elements(3, 17399));
    facts.reported.name = "something else";
    const CaseResult r = decide_case(primes().name, shape_of(primes()), facts);
    CHECK(r.verdict == Verdict::WA);
    CHECK(r.detail == judge_output(unwritten_elements(3, 17399), IntegrityCheck{}).detail);
    CHECK(r.name == "secret/04-primes");
    CHECK((r.M == 127 && r.N == 131 && r.K == 137));
    CHECK(r.timing);

    CaseFacts right;
    right.reported = completed();
    CHECK(decide_case(primes().name, shape_of(primes()), right).verdict == Verdict::AC);
    CHECK(decide_case(primes().name, shape_of(primes()), right).detail.empty());

    CaseFacts moved_input;
    moved_input.reported = completed();
    moved_input.reported.facts.checked_integrity->A_modified = true;
    CHECK(decide_case(primes().name, shape_of(primes()), moved_input).verdict == Verdict::WA);
}

TEST_CASE("a failing timed call is WA by the timed check's rule, named by its number") {
    CaseFacts facts;
    facts.reported = completed();
    FailedTimedCall failed;
    failed.call = 7;
    failed.check.projection.vectors = 2;
    failed.check.projection.rows_checked = 254;
    failed.check.projection.rows_failed = 127;
    failed.check.projection.first_failed_row = 3;
    failed.check.projection.first_difference = 5.0;
    failed.check.projection.first_bound = 1e-4;
    failed.check.projection.worst_ratio = 5e4;
    facts.reported.facts.failed_timed_call = failed;
    const CaseResult r = decide_case(primes().name, shape_of(primes()), facts);
    CHECK(r.verdict == Verdict::WA);
    CHECK(r.detail.rfind("output of timed call 7 (fresh inputs, as every call gets): ", 0) == 0);
    CHECK(test::contains(r.detail, judge_timed_call(failed.check, Precision::FP32, 131, 127LL * 137).detail));

    // A call the referee stopped at whose figures pass: the two sides disagree, the judge's fault.
    facts.reported.facts.failed_timed_call->check = TimedCallCheck{};
    CHECK(decide_case(primes().name, shape_of(primes()), facts).verdict == Verdict::JE);
}

TEST_CASE("the referee's own endings: the solution's failure is RE in its words, the referee's JE") {
    CaseFacts failed;
    failed.reported.facts.ending = RefereeWork::SolutionFailed;
    failed.reported.facts.why = "a CUDA error in solve(): an illegal memory access";
    CHECK(decide_case(primes().name, shape_of(primes()), failed).verdict == Verdict::RE);
    CHECK(decide_case(primes().name, shape_of(primes()), failed).detail ==
          "a CUDA error in solve(): an illegal memory access");
    CaseFacts broke;
    broke.reported.facts.ending = RefereeWork::RefereeFailed;
    broke.reported.facts.why = "the judge failed on this case: out of memory";
    CHECK(decide_case(primes().name, shape_of(primes()), broke).verdict == Verdict::JE);
    CaseFacts unchecked; // completed, yet no check: never AC
    unchecked.reported.facts.ending = RefereeWork::Completed;
    CHECK(decide_case(primes().name, shape_of(primes()), unchecked).verdict == Verdict::JE);
}

TEST_CASE("a blocked attempt is never AC or WA, and is named before any other detail") {
    for (const Verdict v : {Verdict::AC, Verdict::WA}) {
        CaseFacts facts;
        facts.reported = completed(v == Verdict::AC ? OutputCheck{} : unwritten_elements(1, 100));
        facts.attempts = "tried to open a network socket (blocked)";
        const CaseResult r = decide_case(primes().name, shape_of(primes()), facts);
        CHECK(r.verdict == Verdict::RE);
        CHECK(r.detail.rfind("tried to open a network socket (blocked)", 0) == 0);
    }
    CaseFacts overran = ended_early(SupervisorSaw::CallOverran, "call 1 ran past the time limit");
    overran.attempts = "tried to open a network socket (blocked)";
    CHECK(decide_case(primes().name, shape_of(primes()), overran).verdict == Verdict::TLE);
}

TEST_CASE("a lost runner is described by the judge, and an impossible time is JE without figures") {
    CaseFacts lost;
    lost.reported.facts.ending = RefereeWork::SolutionFailed;
    lost.reported.runner_lost = true;
    lost.runner_end = "the solution's process was killed by SIGSEGV during call 2 of solve()";
    CHECK(decide_case(primes().name, shape_of(primes()), lost).verdict == Verdict::RE);
    CHECK(decide_case(primes().name, shape_of(primes()), lost).detail == lost.runner_end);

    CaseFacts fast;
    fast.reported = completed();
    fast.impossible_timing = "faster than the GPU's dense tensor-core peak";
    const CaseResult r = decide_case(primes().name, shape_of(primes()), fast);
    CHECK(r.verdict == Verdict::JE);
    CHECK(r.detail == "faster than the GPU's dense tensor-core peak");
    CHECK_FALSE(r.timing);
    CHECK_FALSE(r.baseline);
}

TEST_CASE("a folder past its limit is RE, named first, over AC and over the judge's failure it may have caused") {
    const std::string over = "the solution's process wrote more than 1 GiB (--scratch-limit) to its folder";
    CaseFacts accepted{SupervisorSaw::RefereeReported, completed(), "", "", {}, "", over};
    const CaseResult r = decide_case(primes().name, shape_of(primes()), accepted);
    CHECK(r.verdict == Verdict::RE);
    CHECK(r.detail == over);
    CaseFacts judge_failed = ended_early(SupervisorSaw::JudgeSideFailed, "the referee is gone");
    judge_failed.folder_overfilled = over;
    const CaseResult j = decide_case(primes().name, shape_of(primes()), judge_failed);
    CHECK(j.verdict == Verdict::RE);
    CHECK(j.detail == over + "; the referee is gone");
    CaseFacts not_compiled = ended_early(SupervisorSaw::NotCompiled, "nvcc failed");
    not_compiled.folder_overfilled = over;
    CHECK(decide_case(primes().name, shape_of(primes()), not_compiled).verdict == Verdict::CE);
}

TEST_CASE("under --sanitize a finding is RE with its line, and a clean run counts only when worse") {
    CaseResult so_far = decide_case(primes().name, shape_of(primes()),
                                    CaseFacts{SupervisorSaw::RefereeReported, completed(), "", "", {}, "", {}});
    add_sanitizer_run(so_far, "memcheck", reported(Verdict::AC), std::nullopt);
    CHECK(so_far.verdict == Verdict::AC);
    CaseResult tle = reported(Verdict::TLE);
    tle.detail = "call 1 ran past the time limit";
    add_sanitizer_run(so_far, "synccheck", tle, std::nullopt);
    CHECK(so_far.verdict == Verdict::TLE);
    CHECK(so_far.detail == "synccheck run: call 1 ran past the time limit");
    add_sanitizer_run(so_far, "racecheck", reported(Verdict::AC), std::string("racecheck: Race at tiled.cu:20"));
    CHECK(so_far.verdict == Verdict::RE);
    CHECK(so_far.detail == "racecheck: Race at tiled.cu:20");
    add_sanitizer_run(so_far, "initcheck", reported(Verdict::AC), std::string("initcheck: another"));
    CHECK(so_far.detail == "racecheck: Race at tiled.cu:20"); // the first finding is kept
}
