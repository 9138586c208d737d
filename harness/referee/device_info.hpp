// What GPU the results come from: name, compute capability, L2 size, driver and clocks.
#pragma once

#include "core/case_result.hpp"

namespace gemm {

// Device 0 as CUDA numbers it (CUDA_VISIBLE_DEVICES applies). Never throws: no GPU,
// no driver or a broken driver come back as present = false with the reason.
DeviceInfo probe_device();

// The SM clock now, through NVML when the driver provides it; 0 when unknown.
int current_sm_clock_mhz();

// NVML reports a thermal or hardware slowdown of the clocks now (not the power cap,
// which an H200 under a full load reaches as a matter of course): a sample taken now
// is discarded (core/sampling.hpp). False when NVML cannot say.
bool gpu_reports_slowdown();

} // namespace gemm
