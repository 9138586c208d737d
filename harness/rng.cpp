#include "rng.hpp"

#include <cmath>

namespace gemm {

std::uint64_t SplitMix64::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

std::uint64_t stream_state(std::uint64_t seed, int input_set, MatrixId matrix) {
    return seed * 16u + 2u * static_cast<std::uint64_t>(input_set) + static_cast<std::uint64_t>(matrix);
}

float map_to_value(std::uint64_t bits, const GeneratorSpec &spec) {
    const double u = static_cast<double>(bits >> 40) * 0x1p-24;
    if (spec.distribution == Distribution::Integers)
        return static_cast<float>(spec.low + std::floor(u * (spec.high - spec.low + 1.0)));
    return static_cast<float>(spec.low + (spec.high - spec.low) * u);
}

std::vector<float> generate_matrix(const GeneratorSpec &spec, int input_set, MatrixId matrix,
                                   int rows, int cols) {
    std::vector<float> values(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    SplitMix64 generator(stream_state(spec.seed, input_set, matrix));
    for (float &v : values) v = map_to_value(generator.next(), spec);
    return values;
}

} // namespace gemm
