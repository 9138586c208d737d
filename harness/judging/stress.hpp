// Stress testing, the competitive programmer's habit: many random shapes, odd sizes
// weighted heavily, reproducible from one seed.
#pragma once

#include "common/shape.hpp"
#include "testcases/problem.hpp"
#include "testcases/testcase.hpp"

#include <cstdint>
#include <functional>
#include <vector>

namespace gemm {

// `count` shapes with every dimension in [1, max_size]: a quarter of the dimensions
// from the sizes around tile edges (1, 2, 3, 4, 15, 16, 17, 31, 32, 33, …), the rest odd.
std::vector<Shape> stress_shapes(int count, std::uint64_t seed, int max_size);

// The same draws for a problem of `dims` sizes (problem.hpp): `count` lists of `dims` sizes
// each, in the order a case's `shape` line gives them, each list drawn again (from the same
// stream, so still reproducible) until `accept` takes it, at most 1000 times. With 3 dims and
// every list accepted, stress_shapes' draws.
std::vector<std::vector<int>> stress_sizes(int count, std::uint64_t seed, int max_size, std::size_t dims,
                                           const std::function<bool(const std::vector<int> &)> &accept = {});

// --stress's cases of `problem`: each of its dims drawn alike by stress_sizes (the default
// problem's M, N, K exactly as stress_shapes draws them), the i-th case's data from seed + i.
// Another problem's draw is kept when it makes a valid case of at most the work of the
// largest M×N×K the default problem could draw (a 4-D tensor's dims multiply).
std::vector<TestCase> stress_cases(const ProblemDescriptor &problem, int count, std::uint64_t seed, int max_size,
                                   const std::string &data);

} // namespace gemm
