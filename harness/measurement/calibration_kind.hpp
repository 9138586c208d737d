// The kinds of work a calibration call does (runner/calibration_kernel.cu). What a call costs
// beyond its own work depends on the work's kind as well as its length: the ladder's short
// calls cost more or less than one calibration call of their length, a TMA and wgmma kernel always
// more (docs/perf-notes.md). So short runs are stood in for by kernels of several kinds, and how far apart their
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
