// The GPU a run was judged on, as the referee read it (referee/device_info.hpp), or why
// there was none.
#pragma once

#include <string>

namespace gemm {

struct DeviceInfo {
    bool present = false;
    std::string error; // why no device, when !present
    std::string name;
    int cc_major = 0, cc_minor = 0, sm_count = 0;
    long long l2_bytes = 0, memory_bytes = 0;
    std::string driver_version; // NVML's "580.159.04" when available
    int cuda_driver_version = 0, cuda_runtime_version = 0;
    int sm_clock_mhz = 0, sm_clock_max_mhz = 0, memory_clock_mhz = 0;
    std::string arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

} // namespace gemm
