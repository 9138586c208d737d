// What GPU the results come from: name, compute capability, L2 size, driver and clocks.
#pragma once

#include "verification/memory_blame.hpp"

#include "verification/case_result.hpp"

#include <optional>
#include <sys/types.h>
#include <vector>

namespace gemm {

// Device 0 as CUDA numbers it (CUDA_VISIBLE_DEVICES applies). Never throws: no GPU,
// no driver or a broken driver come back as present = false with the reason.
DeviceInfo probe_device();

// The SM clock now, through NVML when the driver provides it; 0 when unknown.
int current_sm_clock_mhz();

// NVML reports a thermal or hardware slowdown of the clocks now (not the power cap,
// which an H200 under a full load reaches as a matter of course): a sample taken now
// is discarded (measurement/sampling.hpp). False when NVML cannot say.
bool gpu_reports_slowdown();

// The processes with a compute context on the device now (their PIDs as NVML gives them:
// in a container possibly the host's), through NVML; nullopt when it cannot say.
std::optional<std::vector<pid_t>> gpu_compute_pids();

// The same with the GPU memory each holds (bytes unknown where NVML cannot say).
std::optional<std::vector<GpuMemoryHolder>> gpu_memory_holders();

} // namespace gemm
