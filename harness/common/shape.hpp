// A GEMM's shape M×N×K (inner dimension N): what --shape names, stress draws and
// shrinking makes smaller; a batch's shape also counts its products.
#pragma once

#include <string>
#include <tuple>

namespace gemm {

struct Shape {
    int M = 1, N = 1, K = 1;
    long long batch = 1; // products of this shape, one after another
    bool operator<(const Shape &o) const { return std::tie(M, N, K, batch) < std::tie(o.M, o.N, o.K, o.batch); }
    bool operator==(const Shape &o) const { return M == o.M && N == o.N && K == o.K && batch == o.batch; }
};

// "1×17×1"; a batch "128×(64×32×16)"
std::string shape_text(const Shape &s, const char *separator = "×");

} // namespace gemm
