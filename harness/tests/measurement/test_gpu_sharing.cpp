// Who else runs on the GPU when it was kept busy (measurement/gpu_sharing.hpp): the judge's and
// the solution's processes are told apart from everyone else's by process group, and a
// list that does not hold the judge's own process names nobody.
#include <doctest/doctest.h>

#include "measurement/gpu_sharing.hpp"

#include <csignal>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace gemm;

namespace {

// A made-up machine: PID → (group, name).
ProcessLookup machine(std::vector<std::tuple<pid_t, pid_t, std::string>> processes) {
    return [processes](pid_t pid) -> std::optional<ProcessStat> {
        for (const auto &[p, group, name] : processes)
            if (p == pid) return ProcessStat{1, group, name};
        return std::nullopt;
    };
}

} // namespace

TEST_CASE("a process on the GPU outside the judge's and the solution's groups is named, theirs are not") {
    const auto lookup = machine({{100, 100, "gemm-referee"},
                                 {200, 200, "gemm-runner"}, // the baseline runner, its group's leader
                                 {300, 300, "gemm-runner"}, // the solution's runner
                                 {301, 300, "spinner"},     // a child the solution started: its group
                                 {400, 400, "python3"}});   // someone else's
    const GpuSharing s = classify_gpu_processes({100, 200, 301, 400, 999}, 100, {200, 300}, lookup);
    CHECK(s.judge_seen);
    REQUIRE(s.others.size() == 1);
    CHECK(s.others[0].pid == 400);
    CHECK(s.others[0].name == "python3");
    CHECK(describe_processes(s.others) == "PID 400 (python3)");
    CHECK(describe_processes({{400, "python3"}, {7, ""}}) == "PID 400 (python3), PID 7");
}

TEST_CASE("a GPU list without the judge's own process (another PID namespace) names nobody as the judge's") {
    const auto lookup = machine({{400, 400, "python3"}});
    const GpuSharing s = classify_gpu_processes({4242, 400}, 100, {200, 300}, lookup);
    CHECK_FALSE(s.judge_seen); // the referee then keeps the solution's RE
    CHECK(classify_gpu_processes({}, 100, {200, 300}, lookup).others.empty());
}

TEST_CASE("/proc gives a process's parent, group and name, even a name with spaces and parentheses") {
    const auto self = process_stat(getpid());
    REQUIRE(self);
    CHECK(self->parent == getppid());
    CHECK(self->group == getpgrp());
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        setpgid(0, 0);
        prctl(PR_SET_NAME, "a) b (c", 0, 0, 0);
        (void)!write(ready[1], "x", 1);
        for (;;) pause();
    }
    char x;
    REQUIRE(read(ready[0], &x, 1) == 1);
    const auto named = process_stat(child);
    kill(child, SIGKILL);
    waitpid(child, nullptr, 0);
    REQUIRE(named);
    CHECK(named->parent == getpid());
    CHECK(named->group == child);
    CHECK(named->name == "a) b (c");
    CHECK_FALSE(process_stat(child)); // reaped: gone
}
