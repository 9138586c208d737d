#include "verification/plausibility.hpp"
#include "measurement/stats.hpp"

#include <cmath>
#include <cstdio>

namespace gemm {

double dense_tensor_peak_flops(const DeviceInfo &device) {
    const double mhz = device.sm_clock_max_mhz > 0 ? device.sm_clock_max_mhz : fallback_sm_clock_mhz;
    return device.sm_count * dense_tensor_flop_per_clock_per_sm * mhz * 1e6;
}

std::optional<std::string> impossible_timing(const CaseResult &r, const DeviceInfo &device) {
    if (!r.timing || device.sm_count <= 0) return std::nullopt;
    const double median_ms = r.timing->stats.median_ms;
    const double achieved = median_ms > 0 ? gflops(flop_count(r.M, r.N, r.K, r.batch), median_ms) * 1e9 : INFINITY;
    const double peak = dense_tensor_peak_flops(device);
    if (achieved <= peak) return std::nullopt;
    char text[400];
    std::snprintf(text, sizeof text,
                  "the median time %.4g ms for 2·%d·%d·%d FLOP implies %.4g TFLOP/s, more than the GPU's dense "
                  "tensor-core peak of %.4g TFLOP/s (%d SMs × %.0f FLOP/clock × %.0f MHz): such a time cannot come "
                  "from computing the product, so it is not reported",
                  median_ms, r.M, r.N, r.K, achieved / 1e12, peak / 1e12, device.sm_count,
                  dense_tensor_flop_per_clock_per_sm,
                  device.sm_clock_max_mhz > 0 ? double(device.sm_clock_max_mhz) : fallback_sm_clock_mhz);
    return std::string(text);
}

} // namespace gemm
