// The documented generator of testcase data: SplitMix64 with a fixed mapping to
// floats, so every machine and every language reproduces the same matrices bit for
// bit (testcases/README.md specifies it; the std:: distributions differ between
// standard libraries and are never used for data).
#pragma once

#include <cstdint>
#include <vector>

namespace gemm {

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t state) : state_(state) {}
    std::uint64_t next();

  private:
    std::uint64_t state_;
};

enum class Distribution { Uniform, Integers };

struct GeneratorSpec {
    Distribution distribution = Distribution::Uniform;
    double low = -1.0;
    double high = 1.0;
    std::uint64_t seed = 1;
};

enum class MatrixId { A = 0, B = 1 };

// Input set 0 feeds the checked call, set 1 the timed calls: different numbers, so a
// solution that caches its first answer fails the check of its timed output.
constexpr int checked_input_set = 0;
constexpr int timed_input_set = 1;

// The initial SplitMix64 state of one matrix of one input set: seed·16 + 2·set + matrix.
std::uint64_t stream_state(std::uint64_t seed, int input_set, MatrixId matrix);

// One value from 64 random bits: u = (bits >> 40)·2⁻²⁴ in [0, 1), then
// uniform: low + (high − low)·u in double, rounded to float;
// integers: low + ⌊u·(high − low + 1)⌋.
float map_to_value(std::uint64_t bits, const GeneratorSpec &spec);

// A rows×cols row-major matrix, filled in row-major order from its stream.
std::vector<float> generate_matrix(const GeneratorSpec &spec, int input_set, MatrixId matrix,
                                   int rows, int cols);

} // namespace gemm
