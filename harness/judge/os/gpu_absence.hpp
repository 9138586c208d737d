// Why no GPU can run the cases, said plainly: CUDA's own words for a machine without an
// NVIDIA driver ("CUDA driver version is insufficient for CUDA runtime version") read as
// a version problem, when the driver is simply not there.
#pragma once

#include <string>

namespace gemm {

// Where the judge looks; a test points them elsewhere.
struct GpuSystemFiles {
    std::string driver_version = "/proc/driver/nvidia/version"; // exists while the driver is loaded
    std::string device_node = "/dev/nvidia0";                   // the first GPU, as a container sees it
};

// One or two sentences: what is missing and what to check. `cuda_error` is what the CUDA
// runtime said; `visible_devices` is CUDA_VISIBLE_DEVICES (nullptr when unset).
std::string explain_missing_gpu(const std::string &cuda_error, const char *visible_devices,
                                const GpuSystemFiles &files = {});

} // namespace gemm
