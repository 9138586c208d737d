#include "measurement/score.hpp"
#include "measurement/stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace gemm {

double geometric_mean(const std::vector<double> &values) {
    if (values.empty()) throw std::invalid_argument("geometric mean of no values");
    double log_sum = 0;
    for (double v : values) {
        if (!(v > 0) || !std::isfinite(v))
            throw std::invalid_argument("geometric mean of " + std::to_string(v) + ": values must be positive");
        log_sum += std::log(v);
    }
    return std::exp(log_sum / static_cast<double>(values.size()));
}

int fp32_lanes_per_sm(int cc_major, int cc_minor) {
    const int cc = cc_major * 10 + cc_minor;
    switch (cc) {
    case 60:
    case 70:
    case 72:
    case 75:
    case 80: return 64;
    default: return 128;
    }
}

const char *const fp32_peak_rule =
    "FP32 peak = SMs × FP32 lanes per SM × 2 FLOP (one FMA per lane per cycle) × SM clock read during the run";

double Fp32Peak::gflops() const { return double(sm_count) * lanes_per_sm * 2.0 * sm_clock_mhz / 1000.0; }

std::string Fp32Peak::formula() const {
    char text[160];
    std::snprintf(text, sizeof text, "%d SMs × %d FP32 lanes × 2 FLOP × %d MHz = %.1f TFLOP/s", sm_count, lanes_per_sm,
                  sm_clock_mhz, gflops() / 1000.0);
    return text;
}

Fp32Peak fp32_peak(const DeviceInfo &device, int sm_clock_mhz) {
    return {device.sm_count, fp32_lanes_per_sm(device.cc_major, device.cc_minor), sm_clock_mhz};
}

int sm_clock_during_run(const std::vector<TimedShape> &shapes, const DeviceInfo &device) {
    int clock = 0;
    for (const auto &shape : shapes) clock = std::max(clock, shape.sm_clock_mhz);
    return clock > 0 ? clock : device.sm_clock_max_mhz;
}

std::optional<Score> score_of(const std::vector<TimedShape> &shapes, const DeviceInfo &device) {
    if (shapes.empty()) return std::nullopt;
    std::vector<double> times, ratios, fractions_of_peak;
    const Fp32Peak peak = fp32_peak(device, sm_clock_during_run(shapes, device));
    for (const auto &shape : shapes) {
        times.push_back(shape.ms);
        if (shape.cublas_ms) ratios.push_back(*shape.cublas_ms / shape.ms);
        if (peak.gflops() > 0)
            fractions_of_peak.push_back(gflops(flop_count(shape.M, shape.N, shape.K, shape.batch), shape.ms) /
                                        peak.gflops());
    }
    Score score;
    score.shapes = static_cast<int>(times.size());
    score.geomean_ms = geometric_mean(times);
    if (ratios.size() == times.size()) score.geomean_ratio_to_cublas = geometric_mean(ratios);
    if (fractions_of_peak.size() == times.size()) score.percent_of_peak = 100.0 * geometric_mean(fractions_of_peak);
    score.peak = peak;
    return score;
}

} // namespace gemm
