// Fail fast (command_line/modes/session.hpp): a solution that crashes or hangs on every case is judged
// in seconds. After fail_fast_limit cases end in RE or TLE the rest are not run, and said to
// be; --keep-going runs every case; a WA never stops a run. Driven through the session's own
// loop over the fake referee and runners (test_supervisor.cpp), on the CPU.
#include "command_line/modes/session.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

const std::string bin = GEMM_BIN_DIR;

// What the reporters were told: the rows and the cases not run.
struct Recorder : Reporter {
    std::vector<std::string> finished;
    NotRun not_run;
    void case_finished(const CaseResult &r, const TestCase &, const CasePolicy &) override {
        finished.push_back(r.name + " " + verdict_name(r.verdict));
    }
    void cases_not_run(const NotRun &n) override { not_run = n; }
    int shrinks = 0;
    void shrunk(const ShrinkFinding &) override { ++shrinks; }
};

std::vector<TestCase> cases(int count) {
    std::vector<TestCase> list;
    for (int i = 0; i < count; ++i) {
        TestCase tc;
        tc.name = "secret/case-" + std::to_string(i);
        tc.category = "secret";
        tc.M = 8;
        tc.N = 5;
        tc.K = 7;
        tc.time_limit_s = 0.3;
        list.push_back(tc);
    }
    return list;
}

// The session's loop over `count` cases of a fake solution that does `behaviour`.
struct Judged {
    std::vector<CaseResult> results;
    std::vector<std::string> finished;
    NotRun not_run;
    int shrinks = 0;
};

Judged judge_with_fakes(const std::string &behaviour, int count, bool keep_going, bool shrink = false,
                        bool default_problem = true) {
    TempFolder folder{"gemm-fail-fast"};
    JudgeOptions options;
    options.keep_going = keep_going;
    options.case_run.shrink = shrink;
    Reporters reporters;
    auto owned = std::make_unique<Recorder>();
    Recorder &recorder = *owned;
    reporters.add(std::move(owned));
    Session session(options, reporters, "fake.cu");
    session.context.device.memory_bytes = 1LL << 34;
    session.context.default_problem = default_problem;
    SupervisorOptions s;
    s.referee = bin + "/fake_referee";
    s.runner = bin + "/fake_runner";
    s.library = folder.write("solution.so", behaviour + "\n");
    s.judge_phase_limit_s = 2.0;
    s.startup_limit_s = 10.0;
    Supervisor supervisor(s);
    Judged judged;
    judged.results = session.judge_cases(supervisor, cases(count));
    judged.finished = recorder.finished;
    judged.not_run = recorder.not_run;
    judged.shrinks = recorder.shrinks;
    return judged;
}

} // namespace

TEST_CASE("after three cases that crash the rest are not run, and the report says why and how to run them") {
    const auto judged = judge_with_fakes("crash-in-call", 8, false);
    REQUIRE(judged.results.size() == 3);
    for (const auto &r : judged.results) CHECK(r.verdict == Verdict::RE);
    CHECK(judged.not_run.names.size() == 5);
    CHECK(judged.not_run.names.front() == "secret/case-3");
    CHECK(contains(judged.not_run.why, "stopped after 3 cases ended in RE or TLE"));
    CHECK(contains(judged.not_run.why, "--keep-going"));
}

TEST_CASE("cases that hang count toward the same limit") {
    const auto judged = judge_with_fakes("hang-in-call", 5, false);
    REQUIRE(judged.results.size() == 3);
    for (const auto &r : judged.results) CHECK(r.verdict == Verdict::TLE);
    CHECK(judged.not_run.names.size() == 2);
}

TEST_CASE("--keep-going judges every case however many crash") {
    const auto judged = judge_with_fakes("crash-in-call", 5, true);
    CHECK(judged.results.size() == 5);
    CHECK(judged.not_run.names.empty());
}

TEST_CASE("wrong answers never stop a run: they are fast, and their maps help") {
    const auto judged = judge_with_fakes("wrong", 6, false);
    CHECK(judged.results.size() == 6);
    for (const auto &r : judged.results) CHECK(r.verdict == Verdict::WA);
    CHECK(judged.not_run.names.empty());
}

TEST_CASE("the first WA is shrunk for the default problem, never for another, whose entry point takes its own dims") {
    CHECK(judge_with_fakes("wrong", 2, false, true, true).shrinks == 1);
    const auto other = judge_with_fakes("wrong", 2, false, true, false);
    CHECK(other.shrinks == 0);
    CHECK(other.results.size() == 2);
}
