// The kinds of work a calibration call does (runner/calibration_kernel.cu). What a call costs
// beyond its own work depends on the work's kind as well as its length: on the H200, every
// rung's 0.2–1.4 ms calls cost 10–30 µs more or less than one calibration call of their length,
// rung 11 (TMA and wgmma, 1 block of 384 threads and 192 KB of shared memory per SM) always
// more. So short runs are stood in for by kernels of several kinds, and how far apart their
// costs lie is the offset's uncertainty (measurement/offset_rule.hpp, settle_calibrations).
#pragma once

#include <array>
#include <optional>
#include <string>

namespace gemm {

enum class CalibrationKind {
    Light,        // two blocks of 256 threads per SM, no shared memory: A and B read once, busy, C written
    SharedMemory, // one block of 384 threads per SM holding the most shared memory a block may: a TMA/wgmma kernel's
                  // shape
    Streaming,    // A and B read and C written over and over for its whole length: a memory-bound kernel's traffic
};

constexpr std::array<CalibrationKind, 3> every_calibration_kind{CalibrationKind::Light, CalibrationKind::SharedMemory,
                                                                CalibrationKind::Streaming};

const char *calibration_kind_name(CalibrationKind kind);
std::optional<CalibrationKind> parse_calibration_kind(const std::string &name);

} // namespace gemm
