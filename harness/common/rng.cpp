#include "common/rng.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

namespace gemm {

namespace {

// Per-row and per-column properties: the scale exponent (mixed) or whether the line is zero (sparse).
struct LineProperties {
    std::vector<int> row, col;
};

LineProperties draw_line_properties(const GeneratorSpec &spec, SplitMix64 &g, int rows, int cols) {
    LineProperties p{std::vector<int>(rows), std::vector<int>(cols)};
    auto property = [&](std::uint64_t bits) {
        const double u = unit_fraction(bits);
        if (spec.distribution == Distribution::Mixed)
            return mixed_min_exponent + static_cast<int>(std::floor(u * mixed_exponents));
        return u < zero_line_fraction ? 1 : 0; // 1: the line is zero
    };
    for (int &r : p.row) r = property(g.next());
    for (int &c : p.col) c = property(g.next());
    return p;
}

float element_value(const GeneratorSpec &spec, SplitMix64 &g, const LineProperties &lines, int r, int c) {
    switch (spec.distribution) {
    case Distribution::Normal: {
        double sum = 0; // twelve 24-bit fractions: the sum is exact in double
        for (int i = 0; i < normal_draws; ++i) sum += unit_fraction(g.next());
        return static_cast<float>(sum - 6.0);
    }
    case Distribution::Mixed: return static_cast<float>(std::ldexp(signed_unit(g.next()), lines.row[r] + lines.col[c]));
    case Distribution::Sparse: {
        const bool kept = unit_fraction(g.next()) < spec.density;
        const double value = signed_unit(g.next());
        return kept && !lines.row[r] && !lines.col[c] ? static_cast<float>(value) : 0.0f;
    }
    default: return map_to_value(g.next(), spec);
    }
}

} // namespace

std::uint64_t SplitMix64::next() { return splitmix64_mix(state_ += golden_gamma); }

const char *distribution_name(Distribution d) {
    switch (d) {
    case Distribution::Uniform: return "uniform";
    case Distribution::Integers: return "integers";
    case Distribution::Normal: return "normal";
    case Distribution::Mixed: return "mixed";
    case Distribution::Sparse: return "sparse";
    }
    return "uniform";
}

Distribution distribution_from_name(const std::string &name) {
    for (Distribution d : {Distribution::Uniform, Distribution::Integers, Distribution::Normal, Distribution::Mixed,
                           Distribution::Sparse})
        if (name == distribution_name(d)) return d;
    throw std::invalid_argument("unknown distribution " + name);
}

double max_magnitude(const GeneratorSpec &spec) {
    switch (spec.distribution) {
    case Distribution::Normal: return 6.0;
    case Distribution::Mixed: return std::ldexp(1.0, 2 * (mixed_min_exponent + mixed_exponents - 1));
    case Distribution::Sparse: return 1.0;
    default: return std::max(std::fabs(spec.low), std::fabs(spec.high));
    }
}

std::uint64_t stream_state(std::uint64_t seed, int input_set, MatrixId matrix) {
    return seed * 16u + 2u * static_cast<std::uint64_t>(input_set) + static_cast<std::uint64_t>(matrix);
}

float map_to_value(std::uint64_t bits, const GeneratorSpec &spec) {
    const double u = unit_fraction(bits);
    if (spec.distribution == Distribution::Integers)
        return static_cast<float>(spec.low + std::floor(u * (spec.high - spec.low + 1.0)));
    return static_cast<float>(spec.low + (spec.high - spec.low) * u);
}

std::vector<float> generate_matrix(const GeneratorSpec &spec, int input_set, MatrixId matrix, int rows, int cols) {
    const std::size_t width = static_cast<std::size_t>(cols);
    std::vector<float> values(static_cast<std::size_t>(rows) * width);
    SplitMix64 preamble(stream_state(spec.seed, input_set, matrix));
    LineProperties lines;
    std::uint64_t first_element_state = stream_state(spec.seed, input_set, matrix);
    if (has_line_preamble(spec.distribution)) {
        lines = draw_line_properties(spec, preamble, rows, cols);
        first_element_state += golden_gamma * (static_cast<std::uint64_t>(rows) + static_cast<std::uint64_t>(cols));
    }
    const std::uint64_t draws = static_cast<std::uint64_t>(draws_per_element(spec.distribution));
    auto fill_rows = [&](int begin, int end) {
        SplitMix64 g(first_element_state + golden_gamma * draws * (static_cast<std::uint64_t>(begin) * width));
        for (int r = begin; r < end; ++r)
            for (int c = 0; c < cols; ++c) values[r * width + c] = element_value(spec, g, lines, r, c);
    };
    const unsigned threads = values.size() < (1u << 22) ? 1u : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> workers;
    const int rows_per_thread = static_cast<int>((rows + threads - 1) / threads);
    for (int begin = 0; begin < rows; begin += rows_per_thread)
        workers.emplace_back(fill_rows, begin, std::min(rows, begin + rows_per_thread));
    for (auto &w : workers) w.join();
    const Structure structure = structure_for(spec, matrix);
    if (structure == Structure::General) return values;
    if (structure == Structure::Masked) {
        const std::uint64_t stream = stream_state(spec.seed, input_set, matrix);
        for (std::size_t e = 0; e < values.size(); ++e)
            if (!masked_keeps(stream, e, spec.mask_density)) values[e] = 0.0f;
        return values;
    }
    std::vector<float> structured(values.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            int from_row = r, from_col = c;
            structured[r * width + c] =
                structured_source(structure, from_row, from_col) ? values[from_row * width + from_col] : 0.0f;
        }
    return structured;
}

} // namespace gemm
