// The supervisor against stand-in workers that hang, crash, exit early or babble:
// every misbehaviour costs only the case it happened on.
#include "judge/supervisor.hpp"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <unistd.h>

using namespace gemm;

namespace {

const std::string stand_in = std::string(GEMM_BIN_DIR) + "/stand_in_worker";

TestCase small_case(const std::string &name, double time_limit_s = 0.5) {
    TestCase tc;
    tc.name = name;
    tc.category = "secret";
    tc.M = tc.N = tc.K = 8;
    tc.time_limit_s = time_limit_s;
    return tc;
}

SupervisorOptions options_for(const std::string &mode) {
    SupervisorOptions o;
    o.worker_argv = {stand_in, mode};
    o.judge_phase_limit_s = 1.0;
    o.startup_limit_s = 5.0;
    o.output_tail_bytes = 4096;
    return o;
}

} // namespace

TEST_CASE("a well-behaved worker says hello and returns each case's result") {
    Supervisor s(options_for("ok"));
    const auto start = s.start();
    REQUIRE(start.ok);
    CHECK(start.device.name == "Stand-in GPU");
    CHECK(start.solve_error.empty());
    CHECK(s.run_case(small_case("a")).verdict == Verdict::AC);
    CHECK(s.run_case(small_case("b")).name == "b");
}

TEST_CASE("a worker whose solve() call overruns its limit gets TLE and is killed") {
    Supervisor s(options_for("hang-in-call"));
    const auto r = s.run_case(small_case("slow", 0.3));
    CHECK(r.verdict == Verdict::TLE);
    CHECK(r.detail.find("call 1 of solve() ran past the time limit") != std::string::npos);
    CHECK(r.wall_seconds < 3.0);
}

TEST_CASE("a worker stuck in the judge's own work is JE, not blamed on the solution") {
    Supervisor s(options_for("hang-in-judge"));
    const auto r = s.run_case(small_case("stuck"));
    CHECK(r.verdict == Verdict::JE);
}

TEST_CASE("a worker killed by a signal gets RE naming the signal") {
    Supervisor s(options_for("crash"));
    const auto r = s.run_case(small_case("boom"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(r.detail.find("Segmentation fault") != std::string::npos);
    CHECK(r.detail.find("during call 1 of solve()") != std::string::npos);
}

TEST_CASE("abort() inside solve() is RE") {
    Supervisor s(options_for("abort"));
    const auto r = s.run_case(small_case("abort"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(r.detail.find("Aborted") != std::string::npos);
}

TEST_CASE("exit(0) without a result is RE, whatever the status") {
    Supervisor s(options_for("exit0"));
    const auto r = s.run_case(small_case("quitter"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(r.detail.find("exited with status 0") != std::string::npos);
    CHECK(r.detail.find("without sending a result") != std::string::npos);
}

TEST_CASE("a worker that closes the result channel is RE") {
    Supervisor s(options_for("close-channel"));
    CHECK(s.run_case(small_case("closer")).verdict == Verdict::RE);
}

TEST_CASE("garbage on the private channel is RE and does not crash the judge") {
    Supervisor s(options_for("garbage-channel"));
    const auto r = s.run_case(small_case("liar"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(r.detail.find("not a judge message") != std::string::npos);
}

TEST_CASE("a fake verdict printed on stdout changes nothing and is kept in the output tail") {
    Supervisor s(options_for("garbage-stdout"));
    const auto r = s.run_case(small_case("printer"));
    CHECK(r.verdict == Verdict::AC);
    CHECK(r.output_tail.find("\"verdict\":\"AC\"") != std::string::npos);
}

TEST_CASE("flooding stdout keeps only a bounded tail") {
    Supervisor s(options_for("flood"));
    const auto r = s.run_case(small_case("flood"));
    CHECK(r.verdict == Verdict::AC);
    CHECK(r.output_tail.size() <= 2 * 4096);
    CHECK(r.output_tail.find("last line") != std::string::npos);
}

TEST_CASE("after a crash a fresh worker judges the remaining cases") {
    Supervisor s(options_for("crash-second-case"));
    CHECK(s.run_case(small_case("first")).verdict == Verdict::AC);
    CHECK(s.run_case(small_case("second")).verdict == Verdict::RE);
    CHECK(s.run_case(small_case("third")).verdict == Verdict::AC);
    CHECK(s.run_case(small_case("fourth")).verdict == Verdict::RE); // the fresh worker's second case
}

TEST_CASE("a worker that dies before its hello is reported, and each case gets RE") {
    Supervisor s(options_for("crash-on-start"));
    const auto start = s.start();
    CHECK_FALSE(start.ok);
    CHECK(start.failure.find("while loading the solution") != std::string::npos);
    CHECK(s.run_case(small_case("x")).verdict == Verdict::RE);
}

TEST_CASE("a worker program that cannot be executed is reported") {
    SupervisorOptions o = options_for("ok");
    o.worker_argv = {"/nonexistent/gemm-worker"};
    Supervisor s(o);
    const auto start = s.start();
    CHECK_FALSE(start.ok);
    CHECK(start.failure.find("status 127") != std::string::npos);
}

TEST_CASE("the hello carries a missing solve() through to the judge") {
    Supervisor s(options_for("no-solve"));
    const auto start = s.start();
    REQUIRE(start.ok);
    CHECK(start.solve_error == "no solve");
}

TEST_CASE("a well-formed result without the request's nonce is rejected as forged") {
    Supervisor s(options_for("forge-result"));
    const auto r = s.run_case(small_case("forger"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(r.detail.find("not a judge message") != std::string::npos);
}

TEST_CASE("a hello with the wrong nonce is not taken for the worker's") {
    Supervisor s(options_for("wrong-hello"));
    const auto start = s.start();
    CHECK_FALSE(start.ok);
    CHECK(start.failure.find("not a judge hello") != std::string::npos);
}

TEST_CASE("the case policy reaches the worker with each case") {
    Supervisor s(options_for("ok"));
    CasePolicy policy;
    policy.timed = false;
    policy.precision = Precision::TF32;
    const auto r = s.run_case(small_case("untimed"), policy);
    CHECK(r.verdict == Verdict::AC);
    CHECK(r.detail == "untimed tf32"); // the stand-in echoes the policy it received
    CHECK(s.run_case(small_case("default")).detail == "timed fp32");
}

TEST_CASE("a worker inherits no descriptor of the judge's but its channel") {
    const auto path = std::filesystem::temp_directory_path() / ("gemm-fd-leak-" + std::to_string(::getpid()));
    std::FILE *judge_file = std::fopen(path.c_str(), "w"); // opened without close-on-exec
    REQUIRE(judge_file != nullptr);
    Supervisor s(options_for("write-every-fd"));
    CHECK(s.run_case(small_case("writer")).verdict == Verdict::AC);
    std::fclose(judge_file);
    CHECK(std::filesystem::file_size(path) == 0);
    std::filesystem::remove(path);
}
