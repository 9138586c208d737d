// Turning compute-sanitizer reports into one finding with the solution's source line.
#include "judging/sanitizer.hpp"

#include <doctest/doctest.h>

using namespace gemm;

TEST_CASE("a racecheck report becomes the first race with both source lines") {
    const std::string output =
        "some output of the solution\n"
        "========= COMPUTE-SANITIZER\n"
        "========= Error: Race reported between Write access at racy_tiles(const float *, const float *, float *, int, "
        "int, int)+0x1b0 in /work/main/harness/tests/known-bad/missing-barrier.cu:20\n"
        "=========     and Read access at racy_tiles(const float *, const float *, float *, int, int, int)+0x2c0 in "
        "/work/main/harness/tests/known-bad/missing-barrier.cu:22 [36928 hazards]\n"
        "=========     and Read access at racy_tiles(const float *, const float *, float *, int, int, int)+0x2d0 in "
        "/work/main/harness/tests/known-bad/missing-barrier.cu:22 [33344 hazards]\n"
        "=========\n";
    CHECK(sanitizer_finding("racecheck", output) ==
          "racecheck: Race reported between Write access at missing-barrier.cu:20 and Read access at "
          "missing-barrier.cu:22 [36928 hazards]");
}

TEST_CASE("a memcheck report keeps the access and its line, not the thread details") {
    const std::string output = "========= Invalid __global__ write of size 4 bytes\n"
                               "=========     at (anonymous namespace)::write_through_null(float *)+0x70 in "
                               "/tmp/device-fault.cu:9\n"
                               "=========     by thread (0,0,0) in block (0,0,0)\n"
                               "=========     Address 0x10 is out of bounds\n";
    CHECK(sanitizer_finding("memcheck", output) ==
          "memcheck: Invalid __global__ write of size 4 bytes at device-fault.cu:9");
}

TEST_CASE("a clean sanitizer run has no finding") {
    CHECK_FALSE(sanitizer_finding("initcheck", "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n"));
    CHECK_FALSE(sanitizer_finding("memcheck", "plain output\n"));
}

TEST_CASE("each tool is launched by compute-sanitizer with its name") {
    CHECK(sanitizer_tools() == std::vector<std::string>{"memcheck", "racecheck", "synccheck", "initcheck"});
    const auto prefix = sanitizer_prefix("/opt/cuda/bin/compute-sanitizer", "racecheck");
    CHECK(prefix.front() == "/opt/cuda/bin/compute-sanitizer");
    CHECK(prefix.at(2) == "racecheck");
}
