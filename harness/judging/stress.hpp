// Stress testing, the competitive programmer's habit: many random shapes, odd sizes
// weighted heavily, reproducible from one seed.
#pragma once

#include "common/shape.hpp"

#include <cstdint>
#include <vector>

namespace gemm {

// `count` shapes with every dimension in [1, max_size]: a quarter of the dimensions
// from the sizes around tile edges (1, 2, 3, 4, 15, 16, 17, 31, 32, 33, …), the rest odd.
std::vector<Shape> stress_shapes(int count, std::uint64_t seed, int max_size);

} // namespace gemm
