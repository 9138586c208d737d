// The judge's side of a case's verdict, from facts alone (judge/run/case_verdict.hpp): how
// the run ended, the referee's result, what the confinement blocked, an impossible time.
#include <doctest/doctest.h>

#include "judge/run/case_verdict.hpp"

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

CaseResult reported(Verdict verdict) {
    CaseResult r;
    r.verdict = verdict;
    r.timing = TimedRun{};
    r.baseline = TimedRun{};
    return r;
}

} // namespace

TEST_CASE("each way a run ends without the referee's result has its verdict and keeps its why") {
    const struct {
        CaseEnding ending;
        Verdict verdict;
    } endings[] = {{CaseEnding::NotCompiled, Verdict::CE},
                   {CaseEnding::NotStarted, Verdict::RE},
                   {CaseEnding::CallOverran, Verdict::TLE},
                   {CaseEnding::JudgeFailed, Verdict::JE}};
    for (const auto &e : endings) {
        const CaseResult r = decide_case(primes(), ended_early(e.ending, "because"));
        CHECK(r.verdict == e.verdict);
        CHECK(r.detail == "because");
    }
}

TEST_CASE("the referee's verdict stands, with the case's identity stamped from the testcase") {
    CaseFacts facts;
    facts.reported = reported(Verdict::WA);
    facts.reported.name = "something else";
    facts.reported.detail = "3 of 17399 elements never written";
    const CaseResult r = decide_case(primes(), facts);
    CHECK(r.verdict == Verdict::WA);
    CHECK(r.detail == "3 of 17399 elements never written");
    CHECK(r.name == "secret/04-primes");
    CHECK((r.M == 127 && r.N == 131 && r.K == 137));
    CHECK(r.timing);
}

TEST_CASE("a blocked attempt is never AC or WA, and is named before any other detail") {
    for (const Verdict v : {Verdict::AC, Verdict::WA, Verdict::TLE}) {
        CaseFacts facts;
        facts.reported = reported(v);
        facts.reported.detail = v == Verdict::AC ? "" : "first wrong at row 0";
        facts.attempts = "tried to open a network socket (blocked)";
        const CaseResult r = decide_case(primes(), facts);
        CHECK(r.verdict == (v == Verdict::TLE ? Verdict::TLE : Verdict::RE));
        CHECK(r.detail.rfind("tried to open a network socket (blocked)", 0) == 0);
    }
}

TEST_CASE("a lost runner is described by the judge, and an impossible time is JE without figures") {
    CaseFacts lost;
    lost.reported = reported(Verdict::RE);
    lost.reported.runner_lost = true;
    lost.runner_end = "the solution's process was killed by SIGSEGV during call 2 of solve()";
    CHECK(decide_case(primes(), lost).detail == lost.runner_end);

    CaseFacts fast;
    fast.reported = reported(Verdict::AC);
    fast.impossible_timing = "faster than the GPU's dense tensor-core peak";
    const CaseResult r = decide_case(primes(), fast);
    CHECK(r.verdict == Verdict::JE);
    CHECK(r.detail == "faster than the GPU's dense tensor-core peak");
    CHECK_FALSE(r.timing);
    CHECK_FALSE(r.baseline);
}

TEST_CASE("under --sanitize a finding is RE with its line, and a clean run counts only when worse") {
    CaseResult so_far = decide_case(primes(), CaseFacts{CaseEnding::Reported, reported(Verdict::AC), "", "", {}, ""});
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
