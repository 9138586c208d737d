#include "core/score.hpp"
#include "core/testcase.hpp"

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

int sm_clock_during_run(const std::vector<CaseResult> &results, const DeviceInfo &device) {
    int clock = 0;
    for (const auto &r : results)
        if (r.timing) clock = std::max(clock, r.timing->sm_clock_mhz);
    return clock > 0 ? clock : device.sm_clock_max_mhz;
}

std::optional<Score> score_of(const std::vector<CaseResult> &results, const DeviceInfo &device) {
    std::vector<double> times, ratios, fractions_of_peak;
    const Fp32Peak peak = fp32_peak(device, sm_clock_during_run(results, device));
    for (const auto &r : results) {
        if (r.verdict != Verdict::AC) return std::nullopt;
        if (!r.timing) continue;
        const double ms = r.timing->stats.median_ms;
        times.push_back(ms);
        if (r.baseline) ratios.push_back(r.baseline->stats.median_ms / ms);
        if (peak.gflops() > 0) fractions_of_peak.push_back(gflops(flop_count(r.M, r.N, r.K), ms) / peak.gflops());
    }
    if (times.empty()) return std::nullopt;
    Score score;
    score.shapes = static_cast<int>(times.size());
    score.geomean_ms = geometric_mean(times);
    if (ratios.size() == times.size()) score.geomean_ratio_to_cublas = geometric_mean(ratios);
    if (fractions_of_peak.size() == times.size()) score.percent_of_peak = 100.0 * geometric_mean(fractions_of_peak);
    score.peak = peak;
    return score;
}

std::optional<Score> score_against_cublas(const std::vector<CaseResult> &results, const DeviceInfo &device) {
    std::vector<CaseResult> timed_against_cublas;
    for (const auto &r : results) {
        if (r.verdict != Verdict::AC) return std::nullopt;
        if (r.timing && r.baseline) timed_against_cublas.push_back(r);
    }
    if (timed_against_cublas.empty()) return std::nullopt;
    return score_of(timed_against_cublas, device);
}

} // namespace gemm
