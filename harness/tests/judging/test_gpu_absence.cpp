// Why there is no GPU, in words that say what to check, for each way a machine lacks one.
#include "common/terminal_text.hpp"
#include "judging/os/gpu_absence.hpp"
#include "test_support.hpp"

#include <sstream>

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

// Each line of the terminal's message.
std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

TEST_CASE("without a loaded driver the judge says no NVIDIA driver is loaded, not that it is too old") {
    TempFolder folder;
    const auto why = explain_missing_gpu(insufficient, nullptr, files_in(folder)).sentence();
    CHECK(contains(why, "no NVIDIA driver is loaded"));
    CHECK(contains(why, "nvidia-smi"));
    // CUDA's "driver version is insufficient" would contradict the diagnosis: not quoted.
    CHECK_FALSE(contains(why, "insufficient"));
    CHECK_FALSE(contains(why, "older"));
}

TEST_CASE("a driver with CUDA_VISIBLE_DEVICES hiding every GPU names the variable") {
    TempFolder folder;
    folder.write("proc/driver/nvidia/version", driver_version_line);
    const auto why = explain_missing_gpu("no CUDA-capable device is detected", "-1", files_in(folder)).sentence();
    CHECK(contains(why, "the NVIDIA driver 580.159.04 is loaded"));
    CHECK(contains(why, "CUDA_VISIBLE_DEVICES=\"-1\""));
}

TEST_CASE("a driver without a device node points at the container's GPUs") {
    TempFolder folder;
    folder.write("proc/driver/nvidia/version", driver_version_line);
    const auto why = explain_missing_gpu("no CUDA-capable device is detected", nullptr, files_in(folder)).sentence();
    CHECK(contains(why, "cannot be opened"));
    CHECK(contains(why, "--gpus all"));
}

TEST_CASE("a driver too old for the runtime is said to be too old") {
    TempFolder folder;
    folder.write("proc/driver/nvidia/version", driver_version_line);
    folder.write("dev/nvidia0", "");
    const auto why = explain_missing_gpu(insufficient, nullptr, files_in(folder)).sentence();
    CHECK(contains(why, "older than this CUDA runtime needs"));
    CHECK(contains(why, "Update the driver"));
}

TEST_CASE("a driver and a device that CUDA still cannot use: CUDA's words are quoted, as the only diagnosis") {
    TempFolder folder;
    folder.write("proc/driver/nvidia/version", driver_version_line);
    folder.write("dev/nvidia0", "");
    const auto why = explain_missing_gpu("all CUDA-capable devices are busy or unavailable", nullptr, files_in(folder));
    CHECK(why.what == "CUDA says: all CUDA-capable devices are busy or unavailable");
    CHECK(why.remedy == "The NVIDIA driver 580.159.04 is loaded; check that `nvidia-smi` lists the GPU.");
}

TEST_CASE("the no-GPU message is two lines of at most 100 columns: what is wrong, then what to do") {
    TempFolder folder;
    const std::string long_text(300, 'x');
    std::vector<MissingGpu> all = {explain_missing_gpu(insufficient, nullptr, files_in(folder))};
    folder.write("proc/driver/nvidia/version", driver_version_line);
    all.push_back(
        explain_missing_gpu("no CUDA-capable device is detected", ("\x1b[2J" + long_text).c_str(), files_in(folder)));
    all.push_back(explain_missing_gpu("no CUDA-capable device is detected", nullptr, files_in(folder)));
    folder.write("dev/nvidia0", "");
    all.push_back(explain_missing_gpu(insufficient, nullptr, files_in(folder)));
    all.push_back(explain_missing_gpu("unknown error " + long_text, nullptr, files_in(folder)));
    for (const auto &why : all) {
        const std::string text = missing_gpu_lines(why);
        CAPTURE(text);
        const auto lines = lines_of(text);
        REQUIRE(lines.size() == 2);
        CHECK(lines[0].rfind("judge: no GPU: ", 0) == 0);
        for (const auto &line : lines) CHECK(display_width(line) <= 100);
        CHECK_FALSE(contains(text, "\x1b"));
        CHECK(text.back() == '\n');
    }
    const auto no_driver = lines_of(missing_gpu_lines(
        explain_missing_gpu(insufficient, nullptr, GpuSystemFiles{"/nonexistent/version", "/nonexistent/nvidia0"})));
    CHECK(no_driver.at(0) == "judge: no GPU: no NVIDIA driver is loaded (there is no /nonexistent/version).");
    CHECK(no_driver.at(1) ==
          "Run the judge where an NVIDIA GPU and its driver are installed (`nvidia-smi` lists the GPU).");
}
