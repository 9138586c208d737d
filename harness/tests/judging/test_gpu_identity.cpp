// Turns on the GPU per GPU (judging/os/gpu_identity.hpp, judging/os/gpu_turn.hpp): which
// GPU a judge will use, told from CUDA_VISIBLE_DEVICES and the driver's listing only where
// it is sure; judges on two GPUs do not wait for each other, judges on one GPU do, and a
// judge that cannot tell its GPU keeps every other off every GPU.
#include <doctest/doctest.h>

#include "judging/os/gpu_identity.hpp"
#include "judging/os/gpu_turn.hpp"
#include "test_support.hpp"

#include <cstdlib>

using namespace gemm;
using namespace gemm::test;

namespace {

const std::vector<ListedGpu> two_h200 = {{"0000:18:00.0", "GPU-aaaa-1111", "NVIDIA H200"},
                                         {"0000:2a:00.0", "GPU-bbbb-2222", "NVIDIA H200"}};

} // namespace

TEST_CASE("the GPU a judge will use: an index through the listing, a UUID or its prefix as itself") {
    CHECK(gpu_in_use(nullptr, nullptr, two_h200) == std::optional<std::string>("GPU-aaaa-1111"));
    CHECK(gpu_in_use("1", nullptr, two_h200) == std::optional<std::string>("GPU-bbbb-2222"));
    CHECK(gpu_in_use(" 1 ,0", nullptr, two_h200) == std::optional<std::string>("GPU-bbbb-2222"));
    CHECK(gpu_in_use("GPU-bbbb", nullptr, two_h200) == std::optional<std::string>("GPU-bbbb-2222"));
    CHECK(gpu_in_use("GPU-cccc-3333", nullptr, {}) == std::optional<std::string>("GPU-cccc-3333"));
    CHECK(gpu_in_use("MIG-xyz", nullptr, two_h200) == std::optional<std::string>("MIG-xyz"));
}

TEST_CASE("the GPU a judge will use is not guessed: out of range, no listing, mixed models, an ambiguous prefix") {
    CHECK_FALSE(gpu_in_use("2", nullptr, two_h200));
    CHECK_FALSE(gpu_in_use(nullptr, nullptr, {}));
    CHECK_FALSE(gpu_in_use("GPU-", nullptr, two_h200));
    auto mixed = two_h200;
    mixed[1].model = "NVIDIA A100";
    CHECK_FALSE(gpu_in_use("1", nullptr, mixed)); // CUDA numbers the fastest first
    CHECK(gpu_in_use("1", "PCI_BUS_ID", mixed) == std::optional<std::string>("GPU-bbbb-2222"));
    CHECK_FALSE(gpu_in_use("", nullptr, two_h200));
}

TEST_CASE("CUDA_VISIBLE_DEVICES that hides every GPU needs no turn") {
    CHECK(no_gpu_visible(""));
    CHECK(no_gpu_visible("-1"));
    CHECK_FALSE(no_gpu_visible(nullptr));
    CHECK_FALSE(no_gpu_visible("0"));
    CHECK_FALSE(no_gpu_visible("GPU-aaaa"));
}

TEST_CASE("the driver's listing is read in PCI bus order, with each GPU's UUID and model") {
    TempFolder folder;
    folder.write("0000:2a:00.0/information", "Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-bbbb-2222\nBus Type: PCIe\n");
    folder.write("0000:18:00.0/information", "Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-aaaa-1111\n");
    const auto gpus = listed_gpus_in(folder.path.string());
    REQUIRE(gpus.size() == 2);
    CHECK(gpus[0].uuid == "GPU-aaaa-1111");
    CHECK(gpus[1].uuid == "GPU-bbbb-2222");
    CHECK(gpus[1].model == "NVIDIA H200");
    CHECK(listed_gpus_in(folder.at("none")).empty());
}

TEST_CASE("judges on two GPUs hold their turns at once, and a second judge on one GPU waits for the first") {
    TempFolder folder;
    const std::string machine = folder.at("gpu.lock");
    const auto first = GpuTurn::take_on_gpu(machine, folder.at("gpu-a.lock"), nullptr);
    REQUIRE(first->held());
    const auto other_gpu = GpuTurn::take_on_gpu(machine, folder.at("gpu-b.lock"), nullptr, false);
    CHECK(other_gpu->held());
    const auto same_gpu = GpuTurn::take_on_gpu(machine, folder.at("gpu-a.lock"), nullptr, false);
    CHECK_FALSE(same_gpu->held());
    CHECK(contains(same_gpu->why_not(), "another judge"));
}

TEST_CASE("a judge that cannot tell its GPU keeps judges of every GPU waiting, and waits for them") {
    TempFolder folder;
    const std::string machine = folder.at("gpu.lock");
    {
        const auto whole_machine = GpuTurn::take(machine, nullptr);
        REQUIRE(whole_machine->held());
        CHECK_FALSE(GpuTurn::take_on_gpu(machine, folder.at("gpu-a.lock"), nullptr, false)->held());
    }
    const auto one_gpu = GpuTurn::take_on_gpu(machine, folder.at("gpu-a.lock"), nullptr);
    REQUIRE(one_gpu->held());
    CHECK_FALSE(GpuTurn::try_take(machine)->held());
}

TEST_CASE("a judge names its own GPU's lock file from CUDA_VISIBLE_DEVICES and the listing") {
    TempFolder folder;
    folder.write("0000:18:00.0/information", "Model: NVIDIA H200\nGPU UUID: GPU-aaaa-1111\n");
    folder.write("0000:2a:00.0/information", "Model: NVIDIA H200\nGPU UUID: GPU-bbbb-2222\n");
    const char *before = std::getenv("CUDA_VISIBLE_DEVICES");
    const std::string saved = before ? before : "";
    setenv("GEMM_JUDGE_NVIDIA_GPUS_DIR", folder.path.c_str(), 1);
    setenv("CUDA_VISIBLE_DEVICES", "1", 1);
    CHECK(gpu_turn_lock_path_of_own_gpu() == std::optional<std::string>("/tmp/gemm-judge-gpu-GPU-bbbb-2222.lock"));
    setenv("CUDA_VISIBLE_DEVICES", "GPU-aaaa", 1);
    CHECK(gpu_turn_lock_path_of_own_gpu() == std::optional<std::string>("/tmp/gemm-judge-gpu-GPU-aaaa-1111.lock"));
    setenv("CUDA_VISIBLE_DEVICES", "7", 1);
    CHECK_FALSE(gpu_turn_lock_path_of_own_gpu());
    unsetenv("GEMM_JUDGE_NVIDIA_GPUS_DIR");
    if (before)
        setenv("CUDA_VISIBLE_DEVICES", saved.c_str(), 1);
    else
        unsetenv("CUDA_VISIBLE_DEVICES");
}
