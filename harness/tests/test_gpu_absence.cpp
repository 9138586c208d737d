// Why there is no GPU, in words that say what to check, for each way a machine lacks one.
#include "judge/os/gpu_absence.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

const std::string insufficient = "CUDA driver version is insufficient for CUDA runtime version";

GpuSystemFiles files_in(const TempFolder &folder) {
    return {folder.at("proc/driver/nvidia/version"), folder.at("dev/nvidia0")};
}

const char *driver_version_line = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu Jul 31 2025\n";

} // namespace

TEST_CASE("without a loaded driver the judge says no NVIDIA driver is loaded, not that it is too old") {
    TempFolder folder;
    const auto why = explain_missing_gpu(insufficient, nullptr, files_in(folder));
    CHECK(contains(why, "no NVIDIA driver is loaded"));
    CHECK(contains(why, "nvidia-smi"));
    CHECK(contains(why, "CUDA said: " + insufficient));
    CHECK_FALSE(contains(why, "older"));
}

TEST_CASE("a driver with CUDA_VISIBLE_DEVICES hiding every GPU names the variable") {
    TempFolder folder;
    folder.write("proc/driver/nvidia/version", driver_version_line);
    const auto why = explain_missing_gpu("no CUDA-capable device is detected", "-1", files_in(folder));
    CHECK(contains(why, "the NVIDIA driver 580.159.04 is loaded"));
    CHECK(contains(why, "CUDA_VISIBLE_DEVICES=\"-1\""));
}

TEST_CASE("a driver without a device node points at the container's GPUs") {
    TempFolder folder;
    folder.write("proc/driver/nvidia/version", driver_version_line);
    const auto why = explain_missing_gpu("no CUDA-capable device is detected", nullptr, files_in(folder));
    CHECK(contains(why, "cannot be opened"));
    CHECK(contains(why, "--gpus all"));
}

TEST_CASE("a driver too old for the runtime is said to be too old") {
    TempFolder folder;
    folder.write("proc/driver/nvidia/version", driver_version_line);
    folder.write("dev/nvidia0", "");
    const auto why = explain_missing_gpu(insufficient, nullptr, files_in(folder));
    CHECK(contains(why, "older than this CUDA runtime needs"));
    CHECK(contains(why, "update the driver"));
}
