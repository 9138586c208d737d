#include "judging/stress.hpp"
#include "common/rng.hpp"

#include <algorithm>
#include <cmath>

namespace gemm {

namespace {

const int tile_edges[] = {1, 2, 3, 4, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 257};

int draw_dimension(SplitMix64 &g, int max_size) {
    if (unit_fraction(g.next()) < 0.25) {
        std::vector<int> edges;
        for (int e : tile_edges)
            if (e <= max_size) edges.push_back(e);
        return edges[static_cast<std::size_t>(std::floor(unit_fraction(g.next()) * edges.size()))];
    }
    const int odd_values = (max_size + 1) / 2; // 1, 3, …, the largest odd ≤ max_size
    return 1 + 2 * static_cast<int>(std::floor(unit_fraction(g.next()) * odd_values));
}

} // namespace

std::vector<Shape> stress_shapes(int count, std::uint64_t seed, int max_size) {
    SplitMix64 g(seed);
    std::vector<Shape> shapes(static_cast<std::size_t>(std::max(0, count)));
    for (Shape &s : shapes) {
        s.M = draw_dimension(g, max_size);
        s.N = draw_dimension(g, max_size);
        s.K = draw_dimension(g, max_size);
    }
    return shapes;
}

} // namespace gemm
