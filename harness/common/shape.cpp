#include "common/shape.hpp"

namespace gemm {

std::string shape_text(const Shape &s, const char *separator) {
    const std::string one = std::to_string(s.M) + separator + std::to_string(s.N) + separator + std::to_string(s.K);
    return s.batch == 1 ? one : std::to_string(s.batch) + separator + "(" + one + ")";
}

} // namespace gemm
