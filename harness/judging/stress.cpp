#include "judging/stress.hpp"
#include "common/rng.hpp"
#include "measurement/stats.hpp"
#include "testcases/command_line_case.hpp"

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

std::vector<std::vector<int>> stress_sizes(int count, std::uint64_t seed, int max_size, std::size_t dims,
                                           const std::function<bool(const std::vector<int> &)> &accept) {
    SplitMix64 g(seed);
    std::vector<std::vector<int>> all(static_cast<std::size_t>(std::max(0, count)));
    for (auto &sizes : all)
        for (int attempt = 0; attempt < 1000; ++attempt) {
            sizes.clear();
            for (std::size_t d = 0; d < dims; ++d) sizes.push_back(draw_dimension(g, max_size));
            if (!accept || accept(sizes)) break;
        }
    return all;
}

std::vector<Shape> stress_shapes(int count, std::uint64_t seed, int max_size) {
    std::vector<Shape> shapes;
    for (const auto &sizes : stress_sizes(count, seed, max_size, 3)) shapes.push_back({sizes[0], sizes[1], sizes[2]});
    return shapes;
}

std::vector<TestCase> stress_cases(const ProblemDescriptor &problem, int count, std::uint64_t seed, int max_size,
                                   const std::string &data) {
    const double most_work = 2.0 * std::pow(double(max_size), 3);
    const auto within_reach = [&](const std::vector<int> &sizes) {
        if (problem.is_default) return true;
        try {
            const TestCase tc = command_line_case(problem, sizes, 0, data);
            return flop_count(tc.M, tc.N, tc.K, tc.layout.batch) <= most_work;
        } catch (const UsageError &) {
            return false;
        }
    };
    std::vector<TestCase> cases;
    const auto drawn = stress_sizes(count, seed, max_size, problem.dims.size(), within_reach);
    for (std::size_t i = 0; i < drawn.size(); ++i)
        cases.push_back(command_line_case(problem, drawn[i], static_cast<long long>(seed + i), data));
    return cases;
}

} // namespace gemm
