#include "measurement/calibration_kind.hpp"

namespace gemm {

const char *calibration_kind_name(CalibrationKind kind) {
    switch (kind) {
    case CalibrationKind::Light: return "light";
    case CalibrationKind::SharedMemory: return "shared-memory";
    case CalibrationKind::Streaming: return "streaming";
    }
    return "light";
}

std::optional<CalibrationKind> parse_calibration_kind(const std::string &name) {
    for (CalibrationKind kind : every_calibration_kind)
        if (name == calibration_kind_name(kind)) return kind;
    return std::nullopt;
}

} // namespace gemm
