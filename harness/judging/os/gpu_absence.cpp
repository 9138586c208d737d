#include "judging/os/gpu_absence.hpp"
#include "common/terminal_text.hpp"
#include "common/text.hpp"

#include <iostream>
#include <regex>
#include <unistd.h>

namespace gemm {

namespace {

constexpr std::size_t line_columns = 100;

// "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu …" → "580.159.04"
std::string driver_version(const std::string &version_file_text) {
    static const std::regex version(R"(\b(\d{2,4}\.\d{1,3}(\.\d{1,3})?)\b)");
    std::smatch m;
    return std::regex_search(version_file_text, m, version) ? m[1].str() : "";
}

// Text from outside (the environment, CUDA) kept short enough for its line, and escaped.
std::string shortened(const std::string &text, std::size_t columns) {
    const std::string shown = escape_for_terminal(text);
    return display_width(shown) <= columns ? shown : truncate_to_width(shown, columns - 1) + "…";
}

} // namespace

MissingGpu explain_missing_gpu(const std::string &cuda_error, const char *visible_devices,
                               const GpuSystemFiles &files) {
    const auto version_text = read_text_file(files.driver_version);
    if (!version_text)
        return {"no NVIDIA driver is loaded (there is no " + files.driver_version + ")",
                "Run the judge where an NVIDIA GPU and its driver are installed (`nvidia-smi` lists the GPU)."};
    const std::string version = driver_version(*version_text);
    const std::string driver = "the NVIDIA driver" + (version.empty() ? "" : " " + version);
    if (visible_devices)
        return {driver + " is loaded, but CUDA_VISIBLE_DEVICES=\"" + shortened(visible_devices, 16) +
                    "\" leaves CUDA no GPU",
                "Unset CUDA_VISIBLE_DEVICES, or set it to a GPU that `nvidia-smi -L` lists."};
    if (access(files.device_node.c_str(), R_OK | W_OK) != 0)
        return {driver + " is loaded, but " + files.device_node + " cannot be opened",
                "In a container, start it with the GPUs (`docker run --gpus all`); else check its permissions."};
    if (cuda_error.find("insufficient") != std::string::npos)
        return {driver + " is older than this CUDA runtime needs",
                "Update the driver, or build the judge with an older CUDA Toolkit."};
    // No diagnosis of the judge's own: CUDA's words are all there is.
    const std::string start = "CUDA says: ";
    const std::size_t room = line_columns - std::string("judge: no GPU: ").size() - start.size() - 1;
    std::string remedy = driver + " is loaded; check that `nvidia-smi` lists the GPU.";
    remedy[0] = 'T';
    return {start + shortened(cuda_error, room), remedy};
}

std::string missing_gpu_lines(const MissingGpu &why) {
    return truncate_to_width("judge: no GPU: " + escape_for_terminal(why.what) + ".", line_columns) + "\n" +
           truncate_to_width(escape_for_terminal(why.remedy), line_columns) + "\n";
}

void tell_missing_gpu(const MissingGpu &why) {
    static bool told = false;
    if (told) return;
    told = true;
    std::cerr << missing_gpu_lines(why) << std::flush;
}

} // namespace gemm
