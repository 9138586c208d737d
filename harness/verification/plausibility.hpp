// A time is a claim: one that implies more FLOP/s than the GPU's dense tensor-core
// peak cannot come from computing the product, whatever the kernel, so it is reported
// as the judge's error (JE) with the figures instead of being printed as a result.
#pragma once

#include "verification/case_result.hpp"

#include <optional>
#include <string>

namespace gemm {

// Dense FP16/BF16 tensor-core FLOP per clock per SM on Hopper (H100/H200: 989 TFLOP/s
// at 132 SMs and 1.83 GHz), the fastest dense rate of any GPU the judge meets; used for
// every GPU, so the limit is generous and never rejects an honest time.
constexpr double dense_tensor_flop_per_clock_per_sm = 4096;
// When the driver does not report the SM clock: above any shipping GPU's boost clock.
constexpr double fallback_sm_clock_mhz = 3000;

double dense_tensor_peak_flops(const DeviceInfo &device);

// Why the timing of this result cannot be real, or nothing when it can.
std::optional<std::string> impossible_timing(const CaseResult &result, const DeviceInfo &device);

} // namespace gemm
