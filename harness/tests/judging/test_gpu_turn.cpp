// The judges' turns on the GPU (judging/os/gpu_turn.hpp): a second judge waits for the
// first, says whom it waits for, and takes the turn the moment the first ends, even by
// SIGKILL; a turn nobody holds costs nothing; a lock file that cannot be opened is said.
#include <doctest/doctest.h>

#include "judging/os/gpu_turn.hpp"
#include "test_support.hpp"

#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace gemm;
using namespace gemm::test;

TEST_CASE("a judge waits for another judge's turn on the GPU, names it, and takes the turn when it is killed") {
    TempFolder folder;
    const std::string lock = folder.at("gpu.lock");
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t holder = fork();
    REQUIRE(holder >= 0);
    if (holder == 0) {
        const auto turn = GpuTurn::take(lock, nullptr);
        const char held = turn->held() ? 'y' : 'n';
        (void)!write(ready[1], &held, 1);
        for (;;) pause(); // holds it until killed
    }
    close(ready[1]);
    char held = 0;
    REQUIRE(read(ready[0], &held, 1) == 1);
    close(ready[0]);
    REQUIRE(held == 'y');

    std::vector<std::string> told;
    const auto turn = GpuTurn::take(lock, [&](const std::string &text) {
        told.push_back(text);
        usleep(200 * 1000);
        kill(holder, SIGKILL); // the first judge dies without releasing anything itself
    });
    int status = 0;
    waitpid(holder, &status, 0);
    CHECK(turn->held());
    REQUIRE(told.size() == 1);
    CAPTURE(told.front());
    CHECK(contains(told.front(), "waiting for the GPU: another judge (PID " + std::to_string(holder)));
    CHECK(contains(told.front(), "GEMM_JUDGE_GPU_TURNS=0"));
    CHECK(turn->waited_s() >= 0.2);
    CHECK(turn->waited_s() < 5.0);
}

TEST_CASE("a turn on the GPU nobody holds is taken at once and silently, and is free again when released") {
    TempFolder folder;
    const std::string lock = folder.at("gpu.lock");
    int tells = 0;
    auto first = GpuTurn::take(lock, [&](const std::string &) { ++tells; });
    CHECK(first->held());
    CHECK(first->waited_s() == 0.0);
    first.reset();
    const auto second = GpuTurn::take(lock, [&](const std::string &) { ++tells; });
    CHECK(second->held());
    CHECK(tells == 0);
}

TEST_CASE("a wait is counted even when nobody is told of it") {
    TempFolder folder;
    const std::string lock = folder.at("gpu.lock");
    auto holder = GpuTurn::take(lock, nullptr);
    std::thread release([&] {
        usleep(200 * 1000);
        holder.reset();
    });
    const auto turn = GpuTurn::take(lock, nullptr);
    release.join();
    CHECK(turn->held());
    CHECK(turn->waited_s() >= 0.15);
}

TEST_CASE("a turn whose lock file cannot be opened is not held, says why, and waits for nothing") {
    TempFolder folder;
    const std::string lock = folder.at("missing/folder/gpu.lock");
    const auto turn = GpuTurn::take(lock, [](const std::string &) { FAIL("nothing to wait for"); });
    CHECK_FALSE(turn->held());
    CHECK(contains(turn->why_not(), lock + " cannot be opened"));
}

TEST_CASE("GEMM_JUDGE_GPU_TURNS=0 turns the turns off") {
    const char *before = std::getenv("GEMM_JUDGE_GPU_TURNS");
    const std::string saved = before ? before : "";
    setenv("GEMM_JUDGE_GPU_TURNS", "0", 1);
    CHECK_FALSE(gpu_turns_wanted());
    if (before)
        setenv("GEMM_JUDGE_GPU_TURNS", saved.c_str(), 1);
    else
        unsetenv("GEMM_JUDGE_GPU_TURNS");
    CHECK(gpu_turns_wanted() == (access("/dev/nvidiactl", F_OK) == 0));
}
