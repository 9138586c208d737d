#include "common/shape.hpp"

namespace gemm {

std::string shape_text(const Shape &s, const char *separator) {
    return std::to_string(s.M) + separator + std::to_string(s.N) + separator + std::to_string(s.K);
}

} // namespace gemm
