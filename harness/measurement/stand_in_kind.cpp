#include "measurement/stand_in_kind.hpp"

namespace gemm {

const char *stand_in_kind_name(StandInKind kind) {
    switch (kind) {
    case StandInKind::Light: return "light";
    case StandInKind::SharedMemory: return "shared-memory";
    case StandInKind::Streaming: return "streaming";
    }
    return "light";
}

std::optional<StandInKind> parse_stand_in_kind(const std::string &name) {
    for (StandInKind kind : every_stand_in_kind)
        if (name == stand_in_kind_name(kind)) return kind;
    return std::nullopt;
}

} // namespace gemm
