// The judge run as a child of a front end (harness/judge_child/), with a shell script in the
// judge's place: its exit status or signal, the end of what it printed, its --stream lines and
// console lines as they come, the environment it is given, the limit on its time (it is
// killed with its group), and the command lines serve and batch build with it.
#include <doctest/doctest.h>

#include "judge_child/judge_child.hpp"
#include "test_support.hpp"

#include <chrono>
#include <csignal>

using namespace gemm;
using namespace gemm::judge_child;
using namespace gemm::test;

namespace {

JudgeCall shell(const std::string &script) {
    JudgeCall call;
    call.argv = {"/bin/sh", "-c", script, "judge"};
    return call;
}

} // namespace

TEST_CASE("a judge child's exit status, the end of what it printed, and the environment it was given") {
    JudgeCall call = shell("echo \"first $JUDGE_CHILD_TEST\"; echo second >&2; exit 3");
    call.environment = {"JUDGE_CHILD_TEST=given"};
    const auto ended = run_judge(call);
    CHECK(ended.started);
    CHECK(ended.exit_status == 3);
    CHECK(ended.signal == 0);
    CHECK_FALSE(ended.timed_out);
    CHECK(ended.shell_status() == 3);
    CHECK(ended.output == "first given\nsecond\n");

    call = shell("i=0; while [ $i -lt 300 ]; do echo line-$i; i=$((i+1)); done");
    call.output_limit = 100;
    const auto long_output = run_judge(call);
    CHECK(long_output.output.size() == 100);
    CHECK(contains(long_output.output, "line-299\n")); // the end is kept: it explains the ending
    CHECK_FALSE(contains(long_output.output, "line-0\n"));
}

TEST_CASE("a judge child that runs past its limit is killed with its group, and one that cannot run says so") {
    JudgeCall call = shell("sleep 100 & sleep 100; echo never");
    call.timeout_s = 0.5;
    const auto start = std::chrono::steady_clock::now();
    const auto ended = run_judge(call);
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    CHECK(ended.timed_out);
    CHECK(ended.limit_s == 0.5);
    CHECK(ended.signal == SIGKILL);
    CHECK(ended.shell_status() == 128 + SIGKILL);

    JudgeCall missing;
    missing.argv = {"/nonexistent/gemm-judge", "a.cu"};
    const auto never = run_judge(missing);
    CHECK(never.shell_status() != 0);
}

TEST_CASE("a judge child's --stream lines and console lines reach the listener as they come") {
    // The stream's file is the last argument: run_judge adds `--stream /dev/fd/N`.
    const JudgeCall call = shell("for f; do :; done; echo '{\"event\":\"a\"}' >\"$f\"; echo 'waiting for the GPU';"
                                 "printf '{\"event\":\"b\"}\\n' >\"$f\"; printf 'no newline'");
    std::vector<std::string> stream, console;
    int pid = 0;
    JudgeListener listener;
    listener.started = [&](int started) { pid = started; };
    listener.stream_line = [&](const std::string &line) { stream.push_back(line); };
    listener.console_line = [&](const std::string &line) { console.push_back(line); };
    const auto ended = run_judge(call, listener);
    CHECK(ended.exit_status == 0);
    CHECK(pid > 0);
    CHECK(stream == std::vector<std::string>{R"({"event":"a"})", R"({"event":"b"})"});
    CHECK(console == std::vector<std::string>{"waiting for the GPU", "no newline"});
}

TEST_CASE("the judge's command line for serve and batch, and the one choice of a quick run's cases") {
    CHECK(judge_command_line("gemm-judge", JudgeMode::judge, "a.cu", {"--json", "r.json"}) ==
          std::vector<std::string>{"gemm-judge", "a.cu", "--json", "r.json"});
    CHECK(judge_command_line("gemm-judge", JudgeMode::rank, "a.cu", {}) ==
          std::vector<std::string>{"gemm-judge", "rank", "a.cu"});
    CHECK(quick_run_selection() == std::vector<std::string>{"--selection", "quick"});
}
