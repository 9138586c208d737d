// The supervisor with its three processes, on a machine without a GPU: a fake
// referee that checks C itself (fake_referee.cpp) and fake runners that run the
// real protocol loop and the real confinement, misbehaving on purpose
// (fake_runner.cpp). Every misbehaviour costs only the case it happened on, and no
// verdict depends on what the solution's process says.
#include "judging/os/process.hpp"
#include "judging/supervisor.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace gemm;
using gemm::test::children_named;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

const std::string bin = GEMM_BIN_DIR;

TestCase small_case(const std::string &name, double time_limit_s = 0.5) {
    TestCase tc;
    tc.name = name;
    tc.category = "secret";
    tc.M = 8;
    tc.N = 5;
    tc.K = 7;
    tc.time_limit_s = time_limit_s;
    return tc;
}

// A supervisor whose "solution" does `behaviour` (fake_runner.cpp's words).
struct FakeWorkers {
    TempFolder folder{"gemm-supervisor"};
    SupervisorOptions options;
    explicit FakeWorkers(const std::string &behaviour) {
        options.referee = bin + "/fake_referee";
        options.runner = bin + "/fake_runner";
        options.library = folder.write("solution.so", behaviour + "\n");
        options.judge_phase_limit_s = 2.0;
        options.startup_limit_s = 10.0;
        options.output_tail_bytes = 4096;
    }
};

} // namespace

TEST_CASE("a well-behaved solution is AC by the referee's own check of C") {
    FakeWorkers fakes("ok");
    Supervisor s(fakes.options);
    const auto start = s.start();
    REQUIRE(start.ok);
    CHECK(start.device.name == "Fake GPU");
    CHECK(start.solve_error.empty());
    const auto r = s.run_case(small_case("a"));
    CHECK(r.verdict == Verdict::AC);
    CHECK(r.name == "a");
    CHECK(s.run_case(small_case("b")).verdict == Verdict::AC);
}

TEST_CASE(
    "while another judge has the GPU nothing starts, and start() waits for the turn, then judges and says how long") {
    setenv("GEMM_JUDGE_GPU_TURNS", "1", 1); // this process only: a CTest case runs alone in its own
    auto other_judge = GpuTurn::take(gpu_turn_lock_path(), nullptr);
    REQUIRE(other_judge->held());
    FakeWorkers fakes("ok");
    fakes.options.takes_gpu_turn = true;
    Supervisor s(fakes.options);
    s.begin();
    usleep(200 * 1000);
    CHECK(children_named(getpid(), "fake_referee") == 0);
    std::thread release([&] {
        usleep(300 * 1000);
        other_judge.reset();
    });
    const auto start = s.start();
    release.join();
    REQUIRE(start.ok);
    CHECK(start.waited_for_gpu_s >= 0.2);
    CHECK(children_named(getpid(), "fake_referee") == 1);
    CHECK(s.run_case(small_case("after the wait")).verdict == Verdict::AC);
    // The judge holds its turn now: another judge's try fails until this one is done.
    CHECK_FALSE(GpuTurn::try_take(gpu_turn_lock_path())->held());
    unsetenv("GEMM_JUDGE_GPU_TURNS");
}

TEST_CASE("a wrong C is WA: the verdict is the referee's, from what C holds") {
    FakeWorkers fakes("wrong");
    Supervisor s(fakes.options);
    CHECK(s.run_case(small_case("wrong")).verdict == Verdict::WA);
}

TEST_CASE("the site's allclose travels with the case to the referee and comes back beside the verdict") {
    FakeWorkers right("ok"), wrong("wrong");
    TestCase tc = small_case("site");
    tc.site_tolerance = SiteTolerance{1e-4, 1e-4};
    Supervisor good(right.options);
    const auto passed = good.run_case(tc);
    REQUIRE(passed.check);
    REQUIRE(passed.check->site);
    CHECK(passed.check->site->tolerance == SiteTolerance{1e-4, 1e-4});
    CHECK(passed.check->site->elements == 8 * 7);
    CHECK(passed.check->site->passes());
    Supervisor bad(wrong.options);
    const auto failed = bad.run_case(tc);
    REQUIRE(failed.check);
    REQUIRE(failed.check->site);
    CHECK(failed.check->site->outside > 0);
    CHECK_FALSE(good.run_case(small_case("no tolerance")).check->site); // a problem without one: none
}

TEST_CASE("a forged AC on every descriptor and an early 'returned' earn nothing: C is checked") {
    FakeWorkers fakes("forge");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("forger"));
    CHECK(r.verdict == Verdict::WA);
    CHECK(contains(r.detail, "never written"));
}

TEST_CASE("a line on the runner's channel that is not 'returned' is RE, and the judge goes on") {
    FakeWorkers fakes("garbage");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("liar"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(contains(r.detail, "broke the runner protocol"));
    CHECK(s.run_case(small_case("again")).verdict == Verdict::RE); // a fresh set of processes
}

TEST_CASE("a solution whose call overruns its limit gets TLE and is killed") {
    FakeWorkers fakes("hang-in-call");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("slow", 0.3));
    CHECK(r.verdict == Verdict::TLE);
    CHECK(contains(r.detail, "call 1 of solve() ran past the time limit"));
    CHECK(r.wall_seconds < 5.0);
}

TEST_CASE("a stand-in call in the solution's process is no call of solve(): it leaves the calls' count and the verdict "
          "alone") {
    FakeWorkers fakes("ok");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("calibration-first"));
    CHECK(r.verdict == Verdict::AC);
}

TEST_CASE(
    "a solution's process kept from returning from the judge's stand-in call gets TLE that says so, and is killed") {
    FakeWorkers fakes("hang-in-calibration");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("calibration-first", 0.3));
    CHECK(r.verdict == Verdict::TLE);
    CHECK(contains(r.detail, "a stand-in call the judge made in the solution's process before any call of solve() "
                             "ran past the time limit"));
    CHECK(contains(r.detail, "kept it from returning"));
    CHECK(r.wall_seconds < 5.0);
}

TEST_CASE("a solution killed by a signal gets RE naming the signal and the call") {
    FakeWorkers fakes("crash-in-call");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("boom"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(contains(r.detail, "Segmentation fault"));
    CHECK(contains(r.detail, "during call 1 of solve()"));
}

TEST_CASE("abort() inside solve() is RE") {
    FakeWorkers fakes("abort-in-call");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("abort"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(contains(r.detail, "Aborted"));
}

TEST_CASE("exit(0) inside solve() is RE, whatever the status") {
    FakeWorkers fakes("exit-in-call");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("quitter"));
    CHECK(r.verdict == Verdict::RE);
    CHECK(contains(r.detail, "exited with status 0"));
    CHECK(contains(r.detail, "without returning"));
}

TEST_CASE("a fake verdict printed on stdout changes nothing and is kept in the output tail") {
    FakeWorkers fakes("print");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("printer"));
    CHECK(r.verdict == Verdict::AC);
    CHECK(contains(r.output_tail, "\"verdict\":\"AC\""));
}

TEST_CASE("flooding stdout keeps only a bounded tail") {
    FakeWorkers fakes("flood");
    Supervisor s(fakes.options);
    const auto r = s.run_case(small_case("flood"));
    CHECK(r.verdict == Verdict::AC);
    CHECK(r.output_tail.size() <= 2 * 4096);
    CHECK(contains(r.output_tail, "last line"));
}

TEST_CASE("a solution that dies while it is loaded is reported as the solution's fault, and each case gets RE") {
    FakeWorkers fakes("crash-on-load");
    Supervisor s(fakes.options);
    const auto start = s.start();
    CHECK_FALSE(start.ok);
    CHECK(start.ending == SupervisorSaw::NotStarted);
    CHECK(contains(start.failure, "while loading the solution, before any call of solve()"));
    CHECK(s.run_case(small_case("x")).verdict == Verdict::RE);
}

TEST_CASE("a solution whose process never finishes loading is RE after the load limit, not a long wait") {
    FakeWorkers fakes("hang-on-load");
    fakes.options.load_limit_s = 1.0;
    Supervisor s(fakes.options);
    const auto started = std::chrono::steady_clock::now();
    const auto start = s.start();
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 5.0);
    CHECK_FALSE(start.ok);
    CHECK(start.ending == SupervisorSaw::NotStarted);
    CHECK(contains(start.failure, "did not finish loading the solution within 1 s"));
    CHECK(children_named(getpid(), "fake_runner") == 0);
}

TEST_CASE("a referee program that cannot be executed is reported, not waited for, and is the judge's JE") {
    FakeWorkers fakes("ok");
    fakes.options.referee = "/nonexistent/gemm-referee";
    Supervisor s(fakes.options);
    const auto start = s.start();
    CHECK_FALSE(start.ok);
    CHECK(start.ending == SupervisorSaw::JudgeSideFailed);
    CHECK(contains(start.failure, "status 127"));
    CHECK(s.run_case(small_case("x")).verdict == Verdict::JE);
}

TEST_CASE("a runner that crashes is replaced alone: the referee and its calibration go on") {
    FakeWorkers fakes("crash-in-call");
    Supervisor s(fakes.options);
    for (const char *name : {"first", "second", "third"}) {
        const auto r = s.run_case(small_case(name));
        CHECK(r.verdict == Verdict::RE);
        CHECK(contains(r.detail, "Segmentation fault"));
    }
    CHECK(s.starts().referees == 1);
    CHECK(s.starts().runners == 3);
    CHECK(children_named(getpid(), "fake_referee") == 1);
}

TEST_CASE("a call that overruns costs only its runner: TLE, and the next case runs in a fresh runner") {
    FakeWorkers fakes("hang-in-call");
    Supervisor s(fakes.options);
    for (const char *name : {"slow", "slower"}) {
        const auto r = s.run_case(small_case(name, 0.3));
        CHECK(r.verdict == Verdict::TLE);
        CHECK(r.wall_seconds < 5.0);
    }
    CHECK(s.starts().referees == 1);
    CHECK(s.starts().runners == 2);
}

TEST_CASE("once the referee's spare sockets are used, a failed runner's case starts all three afresh") {
    FakeWorkers fakes("crash-in-call");
    fakes.options.spare_runners = 1;
    Supervisor s(fakes.options);
    for (const char *name : {"a", "b", "c"}) CHECK(s.run_case(small_case(name)).verdict == Verdict::RE);
    CHECK(s.starts().referees == 2); // a and b on the first referee (b on its spare), c on a new one
    CHECK(s.starts().runners == 3);
}

TEST_CASE("a broken protocol replaces the runner, and a good solution's next case is judged by the same referee") {
    FakeWorkers fakes("garbage");
    Supervisor s(fakes.options);
    CHECK(s.run_case(small_case("liar")).verdict == Verdict::RE);
    CHECK(s.run_case(small_case("liar again")).verdict == Verdict::RE);
    CHECK(s.starts().referees == 1);
}

TEST_CASE("the runner's hello carries a missing solve() through to the judge") {
    FakeWorkers fakes("no-solve");
    Supervisor s(fakes.options);
    const auto start = s.start();
    REQUIRE(start.ok);
    CHECK(start.solve_error == "no solve() in it");
}

namespace {

// Which of `fds` a forked child still has open after close_inherited_descriptors(keep): bit i
// for fds[i], as the child's exit status.
int open_after_closing(const std::vector<int> &fds, const std::vector<int> &keep) {
    const pid_t pid = fork();
    if (pid == 0) {
        const int file = open("/dev/null", O_RDONLY);
        for (int fd : fds) dup2(file, fd);
        if (std::find(fds.begin(), fds.end(), file) == fds.end()) close(file);
        close_inherited_descriptors(keep);
        int open_bits = 0;
        for (std::size_t i = 0; i < fds.size(); ++i)
            if (fcntl(fds[i], F_GETFD) != -1) open_bits |= 1 << i;
        _exit(open_bits);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

TEST_CASE("a child keeps the descriptors it is given and no other, the highest the limit allows included") {
    const int highest = static_cast<int>(std::min(sysconf(_SC_OPEN_MAX), 65536L)) - 1;
    REQUIRE(highest > 12);
    const std::vector<int> fds{3, 5, 6, 7, 9, 12, highest};
    CHECK(open_after_closing(fds, {}) == 0);
    CHECK(open_after_closing(fds, {6, 9}) == (1 << 2 | 1 << 4));
    CHECK(open_after_closing(fds, {3, highest}) == (1 << 0 | 1 << 6));
    CHECK(open_after_closing(fds, {12, 5, 6}) == (1 << 1 | 1 << 2 | 1 << 5)); // in any order
}

TEST_CASE("a runner inherits no descriptor of the judge's but its own") {
    TempFolder folder;
    const auto path = folder.at("judge-file");
    std::FILE *judge_file = std::fopen(path.c_str(), "w"); // opened without close-on-exec
    REQUIRE(judge_file != nullptr);
    FakeWorkers fakes("forge"); // writes to every descriptor 0…63
    Supervisor s(fakes.options);
    s.run_case(small_case("writer"));
    std::fclose(judge_file);
    CHECK(std::filesystem::file_size(path) == 0);
}
