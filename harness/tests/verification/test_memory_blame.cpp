// verification/memory_blame: whose fault an allocation the referee could not make is, from who holds
// the GPU's memory (NVML's list and /proc, here stood in for).
#include "verification/memory_blame.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace gemm;

namespace {

constexpr pid_t referee = 100, baseline_group = 200, solution_group = 300;

// 100 the referee, 201 the baseline runner, 301 the solution's runner, 302 its child,
// 400 another program.
std::optional<ProcessStat> lookup(pid_t pid) {
    static const std::map<pid_t, ProcessStat> table = {{100, {1, 100, "gemm-referee"}},
                                                       {201, {1, baseline_group, "gemm-runner"}},
                                                       {301, {1, solution_group, "gemm-runner"}},
                                                       {302, {301, solution_group, "gemm-runner"}},
                                                       {400, {1, 400, "python3"}}};
    const auto found = table.find(pid);
    if (found == table.end()) return std::nullopt;
    return found->second;
}

MemoryBlame blame(double needed, double free_bytes, const std::vector<GpuMemoryHolder> &holders) {
    return blame_out_of_memory(needed, free_bytes, holders, referee, solution_group, {baseline_group}, lookup);
}

} // namespace

TEST_CASE("memory the solution's processes hold, without which the case fits, is the solution's doing") {
    const auto b = blame(26e9, 1e9, {{100, 2e9}, {201, 0.5e9}, {301, 100e9}, {302, 31e9}});
    CHECK(b.solution_at_fault);
    CHECK(b.why == "the solution's process holds 131 GB of GPU memory, so the judge could not allocate the case's "
                   "inputs and reference; the case needs 26 GB and 1.0 GB is free");
}

TEST_CASE("memory another program holds is the judge's failure to judge here, naming it") {
    const auto b = blame(26e9, 1e9, {{100, 2e9}, {301, 0.3e9}, {400, 120e9}});
    CHECK_FALSE(b.solution_at_fault);
    CHECK(b.why.find("PID 400 (python3) outside the judge holds 120 GB of GPU memory") == 0);
    CHECK(b.why.find("judge again when the GPU is free") != std::string::npos);
}

TEST_CASE("without NVML's figures nobody is blamed but the judge, and the message says so") {
    const auto b = blame(26e9, 1e9, {{301, std::nullopt}});
    CHECK_FALSE(b.solution_at_fault);
    CHECK(b.why.find("NVML cannot say which process holds it") != std::string::npos);
}

TEST_CASE("a case that would not fit even without the solution's memory is not the solution's fault") {
    const auto b = blame(200e9, 1e9, {{301, 100e9}});
    CHECK_FALSE(b.solution_at_fault);
    CHECK(b.why.find("the solution's process holds 100 GB") != std::string::npos);
}

TEST_CASE("the memory a case needs counts both copies of the inputs and the FP64 reference") {
    CHECK(gpu_bytes_needed(1, 1, 1) == 4 * 6 + 8 * 4);
    CHECK(gpu_bytes_needed(8192, 8192, 8192) == doctest::Approx(4 * 6 * 67108864.0 + 8 * 4 * 67108864.0));
}

TEST_CASE("the memory a case needs counts stored operands in the problem's own element size") {
    const double e = 64.0 * 64.0; // elements of each 64×64 operand
    ProductLayout half;
    half.element_bytes = 2;
    // Stored twice at 2 B, widened once at 4 B, the reference at 8 B.
    CHECK(gpu_bytes_needed(64, 64, 64, half) == 2 * 2 * 3 * e + 4 * 3 * e + 8 * 4 * e);
    ProductLayout int8 = half;
    int8.element_bytes = 1;
    CHECK(gpu_bytes_needed(64, 64, 64, int8) == 2 * 1 * 3 * e + 4 * 3 * e + 8 * 4 * e);
    // C read: C₀ stored once more, and for FP16 widened once more.
    half.c_read = true;
    CHECK(gpu_bytes_needed(64, 64, 64, half) == 2 * 2 * 3 * e + 2 * e + 4 * 4 * e + 8 * 4 * e);
    ProductLayout epilogue;
    epilogue.bias = epilogue.factor = true;
    CHECK(gpu_bytes_needed(64, 64, 64, epilogue) == gpu_bytes_needed(64, 64, 64) + 2 * 4 * (64 + e));
}
