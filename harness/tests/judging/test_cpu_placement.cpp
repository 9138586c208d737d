// Which CPUs the referee and the runners are pinned to (judging/os/cpu_placement.hpp): the
// rule on made-up CPUs, the lock files that keep two judges apart, and a child that is
// started pinned and runs nowhere else.
#include <doctest/doctest.h>

#include "judging/os/child_process.hpp"
#include "judging/os/cpu_placement.hpp"

#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <sched.h>
#include <set>
#include <unistd.h>

using namespace gemm;
namespace fs = std::filesystem;

namespace {

std::vector<int> cpus(int first, int last) {
    std::vector<int> v;
    for (int c = first; c <= last; ++c) v.push_back(c);
    return v;
}

// Grants every CPU but those in `busy`, and remembers what it granted and took back.
struct Claims {
    std::set<int> busy, granted, released;
    std::function<bool(int)> claim() {
        return [this](int cpu) {
            if (busy.count(cpu)) return false;
            granted.insert(cpu);
            return true;
        };
    }
    std::function<void(int)> release() {
        return [this](int cpu) { released.insert(cpu); };
    }
};

const auto no_siblings = [](int cpu) { return std::vector<int>{cpu}; };

struct TempDir {
    fs::path path;
    TempDir() {
        char name[] = "/tmp/cpu-placement-XXXXXX";
        path = mkdtemp(name);
    }
    ~TempDir() { fs::remove_all(path); }
};

} // namespace

TEST_CASE("a cpulist of the kernel's is read, and one that is not is refused") {
    CHECK(parse_cpu_list("0-3,8,10-11\n") == std::vector<int>{0, 1, 2, 3, 8, 10, 11});
    CHECK(parse_cpu_list("5") == std::vector<int>{5});
    for (const char *bad : {"", "\n", "3-1", "a", "1,,2", "1,", "-2", "1-", "99999999"})
        CHECK_MESSAGE(!parse_cpu_list(bad), bad);
}

TEST_CASE("the runners take the highest free CPU and the referee the next one off its core") {
    SUBCASE("every CPU free, no hyperthreads") {
        Claims c;
        const auto pair = choose_cpu_pair(cpus(0, 15), c.claim(), c.release(), no_siblings);
        REQUIRE(pair);
        CHECK(pair->runners == 15);
        CHECK(pair->referee == 14);
        CHECK(c.released.empty());
    }
    SUBCASE("the next CPU is a hyperthread of the runners': it is skipped and given back") {
        Claims c;
        const auto pair_siblings = [](int cpu) { return std::vector<int>{cpu & ~1, cpu | 1}; };
        const auto pair = choose_cpu_pair(cpus(0, 15), c.claim(), c.release(), pair_siblings);
        REQUIRE(pair);
        CHECK(pair->runners == 15);
        CHECK(pair->referee == 13);
        CHECK(c.released == std::set<int>{14});
    }
    SUBCASE("only hyperthreads of one core are free: the referee takes the sibling") {
        Claims c;
        c.busy = {0, 1, 2, 3, 4, 5};
        const auto pair_siblings = [](int cpu) { return std::vector<int>{cpu & ~1, cpu | 1}; };
        const auto pair = choose_cpu_pair(cpus(0, 7), c.claim(), c.release(), pair_siblings);
        REQUIRE(pair);
        CHECK(pair->runners == 7);
        CHECK(pair->referee == 6);
        CHECK(c.released.empty());
    }
    SUBCASE("CPUs another judge holds are passed over") {
        Claims c;
        c.busy = {15, 14, 12};
        const auto pair = choose_cpu_pair(cpus(0, 15), c.claim(), c.release(), no_siblings);
        REQUIRE(pair);
        CHECK(pair->runners == 13);
        CHECK(pair->referee == 11);
    }
    SUBCASE("one free CPU is not a pair: it is given back") {
        Claims c;
        c.busy = {0, 1, 2, 3, 4, 5, 6};
        CHECK(!choose_cpu_pair(cpus(0, 7), c.claim(), c.release(), no_siblings));
        CHECK(c.granted == std::set<int>{7});
        CHECK(c.released == std::set<int>{7});
    }
    SUBCASE("fewer than three CPUs: nothing is pinned or claimed") {
        Claims c;
        CHECK(!choose_cpu_pair({0, 1}, c.claim(), c.release(), no_siblings));
        CHECK(c.granted.empty());
    }
}

TEST_CASE("two judges at once claim different CPUs, and a judge's end frees them") {
    TempDir locks;
    const auto first = CpuClaim::claim_among(cpus(0, 5), locks.path);
    REQUIRE(first->pair());
    CHECK(first->describe() == "referee on CPU 4, runners on CPU 5");
    {
        const auto second = CpuClaim::claim_among(cpus(0, 5), locks.path);
        REQUIRE(second->pair());
        CHECK(second->pair()->runners == 3);
        CHECK(second->pair()->referee == 2);
        const auto third = CpuClaim::claim_among(cpus(0, 5), locks.path);
        REQUIRE(third->pair());
        CHECK(third->pair()->runners == 1);
        const auto fourth = CpuClaim::claim_among(cpus(0, 5), locks.path);
        CHECK(!fourth->pair());
        CHECK(fourth->describe().find("not pinned: no two of its CPUs were free of other judges") == 0);
    }
    const auto again = CpuClaim::claim_among(cpus(0, 5), locks.path);
    REQUIRE(again->pair());
    CHECK(again->pair()->runners == 3);
    CHECK(CpuClaim::claim_among({0, 1}, locks.path)->describe() ==
          "not pinned: the judge may use 2 CPU(s), fewer than 3");
    CHECK(CpuClaim::claim_among(cpus(0, 5), locks.path / "missing")->describe() ==
          "not pinned: its lock files in " + (locks.path / "missing").string() +
              " cannot be opened: No such file or directory");
    CHECK(CpuClaim::none("ncu wraps the solution's process")->describe() ==
          "not pinned: ncu wraps the solution's process");
}

TEST_CASE("every supervisor of one judge shares its claim: compare's two sides run on the same CPUs") {
    const auto first = CpuClaim::for_this_judge();
    CHECK(first == CpuClaim::for_this_judge());
    CHECK(first->describe() == CpuClaim::for_this_judge()->describe());
}

TEST_CASE("a child started pinned runs on that CPU alone, and so does what it starts") {
    cpu_set_t set;
    CPU_ZERO(&set);
    REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
    int cpu = -1;
    for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &set)) cpu = c;
    REQUIRE(cpu >= 0);
    int output[2];
    REQUIRE(pipe(output) == 0);
    ChildSpec spec;
    // The shell's child (grep) reports its own affinity: what the pinned process starts.
    spec.argv = {"/bin/sh", "-c", "grep Cpus_allowed_list /proc/self/status"};
    spec.output_fd = output[1];
    spec.cpu = cpu;
    ChildProcess child;
    REQUIRE(child.start(spec));
    close(output[1]);
    std::string text;
    char buffer[256];
    for (ssize_t n; (n = read(output[0], buffer, sizeof buffer)) > 0;) text.append(buffer, std::size_t(n));
    close(output[0]);
    child.reap(5);
    CHECK(text == "Cpus_allowed_list:\t" + std::to_string(cpu) + "\n");
}
