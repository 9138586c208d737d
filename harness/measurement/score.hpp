// The ranked score of a run: one number per figure over every timed shape, so runs of
// the same shapes compare at a glance. Geometric means, because the shapes span four
// orders of magnitude in time and a mean of milliseconds would be the largest shape's
// time alone; a geometric mean moves by the same factor whichever shape gets 10% faster.
#pragma once

#include "common/device.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm {

// exp(mean(log x)). Throws std::invalid_argument when empty or when a value is not a
// positive finite number: a zero time or ratio has no logarithm, and silently skipping it
// would rank a run on fewer shapes than it claims.
double geometric_mean(const std::vector<double> &values);

// CUDA cores (FP32 FMA lanes) per SM, from the CUDA C++ Programming Guide's throughput
// table: 64 on sm_60, sm_70, sm_72, sm_75 and sm_80; 128 on sm_5x, sm_61, sm_62, sm_86,
// sm_87, sm_89, sm_90, sm_100, sm_120 and for any capability not in the table (every
// architecture since sm_86 has 128).
int fp32_lanes_per_sm(int cc_major, int cc_minor);

// The FP32 peak of a GPU, without tensor cores:
//   peak FLOP/s = SMs × FP32 lanes per SM × 2 FLOP (one FMA per lane per cycle) × SM clock.
// The clock is the one read during the run, not the advertised boost clock, so a GPU held
// at a lower clock (power cap, thermal limit) is measured against what it could do then.
struct Fp32Peak {
    int sm_count = 0, lanes_per_sm = 0, sm_clock_mhz = 0;
    double gflops() const;
    // "132 SMs × 128 FP32 lanes × 2 FLOP × 1980 MHz = 66.9 TFLOP/s"
    std::string formula() const;
};

// The rule in words, for --help and for reports that print no device.
extern const char *const fp32_peak_rule;

Fp32Peak fp32_peak(const DeviceInfo &device, int sm_clock_mhz);

// One timed shape of a run: its median time, cuBLAS's beside it when it was timed too, and
// the SM clock read right after its timed calls (0 when none was read).
struct TimedShape {
    int M = 0, N = 0, K = 0;
    double ms = 0;
    std::optional<double> cublas_ms;
    int sm_clock_mhz = 0;
    long long batch = 1; // products of M×N×K timed together
};

// The highest SM clock read right after a shape's timed calls, that is the clock the GPU
// reached under load; the device's maximum clock when no shape was timed with a reading.
int sm_clock_during_run(const std::vector<TimedShape> &shapes, const DeviceInfo &device);

struct Score {
    int shapes = 0;                                // timed cases the figures are over
    double geomean_ms = 0;                         // of the per-shape median times
    std::optional<double> geomean_ratio_to_cublas; // of cuBLAS time / solution time: > 1 is faster than cuBLAS
    std::optional<double> percent_of_peak;         // geometric mean GFLOP/s over the FP32 peak, × 100
    Fp32Peak peak;
};

// The figures over every shape given; none when none is given. The ratio to cuBLAS only
// when every shape has a cuBLAS time (a mean over some of the shapes would not be the
// run's); the percentage only when the clock is known. Which shapes count (only a run whose
// every case is AC has a score) is verification/run_score.hpp's rule.
std::optional<Score> score_of(const std::vector<TimedShape> &shapes, const DeviceInfo &device);

} // namespace gemm
