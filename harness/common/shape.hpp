// A GEMM's shape M×N×K (inner dimension N): what --shape names, stress draws and
// shrinking makes smaller.
#pragma once

#include <string>
#include <tuple>

namespace gemm {

struct Shape {
    int M = 1, N = 1, K = 1;
    bool operator<(const Shape &o) const { return std::tie(M, N, K) < std::tie(o.M, o.N, o.K); }
    bool operator==(const Shape &o) const { return M == o.M && N == o.N && K == o.K; }
};

std::string shape_text(const Shape &s, const char *separator = "×"); // "1×17×1"

} // namespace gemm
