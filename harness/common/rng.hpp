// The documented generator of testcase data: SplitMix64 with a fixed mapping to
// floats, so every machine and every language reproduces the same matrices bit for
// bit (testcases/README.md specifies it; the std:: distributions differ between
// standard libraries and are never used for data).
#pragma once

#include "common/portable.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gemm {

// SplitMix64: the state advances by the golden gamma, and each state is mixed into a
// draw. Draw k (from 0) of a stream that starts in state s is splitmix64_mix(s + (k+1)·γ),
// so any draw can be computed directly (the GPU generator does, one element per thread).
constexpr std::uint64_t golden_gamma = 0x9E3779B97F4A7C15ull;

GEMM_HOST_DEVICE inline std::uint64_t splitmix64_mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The distributions' constants (testcases/README.md).
constexpr int normal_draws = 12;        // Irwin–Hall: the sum of 12 uniforms minus 6
constexpr int mixed_min_exponent = -10; // 2⁻¹⁰ … 2¹⁰, about 1e−3 … 1e3
constexpr int mixed_exponents = 21;
constexpr double zero_line_fraction = 0.125; // sparse: rows and columns that are entirely zero

class SplitMix64 {
  public:
    explicit SplitMix64(std::uint64_t state) : state_(state) {}
    std::uint64_t next();

  private:
    std::uint64_t state_;
};

enum class Distribution { Uniform, Integers, Normal, Mixed, Sparse };

const char *distribution_name(Distribution d);
Distribution distribution_from_name(const std::string &name); // throws std::invalid_argument

// The shape of an operand's values a problem asks for (docs/problems.md, `structure`): a
// triangle keeps its exact zeros off the diagonal's side, a symmetric matrix takes the value
// above the diagonal for the one below it. Applied after the distribution, the same way on
// the CPU and on the GPU. A masked matrix keeps each element with the probability its density
// gives (a dense-stored sparse matrix), drawn from a stream of its own, so its kept values are
// the general matrix's.
enum class Structure { General, Lower, Upper, Symmetric, Masked };

// Where element (row, col) of a structured matrix comes from: false for an exact zero, else
// the element whose generated value it takes (itself, or its mirror above the diagonal).
GEMM_HOST_DEVICE inline bool structured_source(Structure s, int &row, int &col) {
    if (s == Structure::Lower) return col <= row;
    if (s == Structure::Upper) return col >= row;
    if (s == Structure::Symmetric && row > col) {
        const int r = row;
        row = col;
        col = r;
    }
    return true;
}

struct GeneratorSpec {
    Distribution distribution = Distribution::Uniform;
    double low = -1.0; // uniform and integers
    double high = 1.0;
    std::uint64_t seed = 1;
    double density = 1.0; // sparse: the fraction of elements drawn non-zero
    Structure structure_a = Structure::General, structure_b = Structure::General;
    double mask_density = 1.0; // Structure::Masked: the fraction of elements kept
};

// The largest |value| a distribution can produce, for the overflow check.
double max_magnitude(const GeneratorSpec &spec);

// The referee's operands, each its own stream: the product's, an epilogue's bias (one row of
// K values) and factor (M×K), and C₀ where C is read (α·A·B + β·C₀), drawn from the case's
// distribution. Their streams (below) stay distinct: 0–3, 4–7, 8 and 10.
enum class MatrixId { A = 0, B = 1, Bias = 4, Factor = 5, C0 = 8 };

// A and B have the problem's structures; an epilogue's operands are general.
inline Structure structure_for(const GeneratorSpec &spec, MatrixId matrix) {
    return matrix == MatrixId::A ? spec.structure_a : matrix == MatrixId::B ? spec.structure_b : Structure::General;
}

// Input set 0 feeds the checked call, set 1 the timed calls: different numbers, so a
// solution that caches its first answer fails the check of its timed output.
constexpr int checked_input_set = 0;
constexpr int timed_input_set = 1;

// The initial SplitMix64 state of one matrix of one input set: seed·16 + 2·set + matrix
// (distinct for the two sets of the four matrices).
std::uint64_t stream_state(std::uint64_t seed, int input_set, MatrixId matrix);

// u = (bits >> 40)·2⁻²⁴: the top 24 bits as a fraction in [0, 1), exact in double.
GEMM_HOST_DEVICE inline double unit_fraction(std::uint64_t bits) { return static_cast<double>(bits >> 40) * 0x1p-24; }

GEMM_HOST_DEVICE inline double signed_unit(std::uint64_t bits) { return -1.0 + 2.0 * unit_fraction(bits); }

// Whether a masked matrix keeps element `element` (row-major index): draw `element` of the
// mask's own stream, which starts from the matrix's stream mixed with a constant, below the
// density. Integer work and one exact comparison: the same on the CPU and the GPU.
constexpr std::uint64_t mask_stream_salt = 0x6D61736B65644D61ull; // "maskedMa"
GEMM_HOST_DEVICE inline bool masked_keeps(std::uint64_t matrix_stream, std::uint64_t element, double density) {
    const std::uint64_t mask_stream = splitmix64_mix(matrix_stream ^ mask_stream_salt);
    return unit_fraction(splitmix64_mix(mask_stream + (element + 1) * golden_gamma)) < density;
}

// Draws per element, after a preamble of one draw per row and one per column for the
// distributions that have row and column properties.
GEMM_HOST_DEVICE inline int draws_per_element(Distribution d) {
    return d == Distribution::Normal ? normal_draws : d == Distribution::Sparse ? 2 : 1;
}

GEMM_HOST_DEVICE inline bool has_line_preamble(Distribution d) {
    return d == Distribution::Mixed || d == Distribution::Sparse;
}

// One uniform or integers value from 64 random bits:
// uniform: low + (high − low)·u in double, rounded to float;
// integers: low + ⌊u·(high − low + 1)⌋.
float map_to_value(std::uint64_t bits, const GeneratorSpec &spec);

// A rows×cols row-major matrix from its stream; testcases/README.md specifies every
// distribution's draws. Large matrices are generated by several threads: SplitMix64's
// state after k draws is s₀ + k·γ, so any element's draws can be reached directly.
std::vector<float> generate_matrix(const GeneratorSpec &spec, int input_set, MatrixId matrix, int rows, int cols);

} // namespace gemm
