#include "judge/os/gpu_absence.hpp"
#include "core/text.hpp"

#include <regex>
#include <unistd.h>

namespace gemm {

namespace {

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu …" → "580.159.04"
std::string driver_version(const std::string &version_file_text) {
    static const std::regex version(R"(\b(\d{2,4}\.\d{1,3}(\.\d{1,3})?)\b)");
    std::smatch m;
    return std::regex_search(version_file_text, m, version) ? m[1].str() : "";
}

} // namespace

std::string explain_missing_gpu(const std::string &cuda_error, const char *visible_devices,
                                const GpuSystemFiles &files) {
    const auto version_text = read_text_file(files.driver_version);
    const std::string cuda_said = " (CUDA said: " + cuda_error + ")";
    if (!version_text)
        return "no NVIDIA driver is loaded (there is no " + files.driver_version +
               "), so no GPU can run the cases; on a machine with an NVIDIA GPU, install its driver and check "
               "that `nvidia-smi` lists the GPU" +
               cuda_said;
    const std::string version = driver_version(*version_text);
    const std::string driver = "the NVIDIA driver" + (version.empty() ? "" : " " + version) + " is loaded";
    if (visible_devices)
        return driver + ", but CUDA_VISIBLE_DEVICES=\"" + visible_devices +
               "\" leaves CUDA no GPU; unset it or name a GPU that `nvidia-smi -L` lists" + cuda_said;
    if (access(files.device_node.c_str(), R_OK | W_OK) != 0)
        return driver + ", but " + files.device_node +
               " cannot be opened: inside a container, start it with the GPUs (e.g. `docker run --gpus all`); "
               "otherwise check its permissions" +
               cuda_said;
    if (cuda_error.find("insufficient") != std::string::npos)
        return driver +
               " but is older than this CUDA runtime needs: update the driver, or build with an older "
               "CUDA Toolkit" +
               cuda_said;
    return driver + " but CUDA cannot use a GPU: check `nvidia-smi`" + cuda_said;
}

} // namespace gemm
