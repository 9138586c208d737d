#include "referee/cuda_check.hpp"
#include "referee/device_inputs.hpp"

namespace gemm {

namespace {

// The CPU computes in double without contraction; __dmul_rn and __dadd_rn keep nvcc
// from fusing the same operations into an FMA, which rounds once instead of twice.
struct DeviceSpec {
    Distribution distribution;
    double low, width, integer_range, density; // width = high − low, integer_range = width + 1
    std::uint64_t stream;                      // the stream's initial state
    std::uint64_t first_element;               // the state before the first element's draws
    std::uint64_t draws;                       // per element
    int rows, cols;
    Structure structure;
    double mask_density;
};

__device__ std::uint64_t draw(std::uint64_t state_before, std::uint64_t k) {
    return splitmix64_mix(state_before + (k + 1) * golden_gamma);
}

// Mixed: the scale exponent of a row or column; sparse: 1 when the whole line is zero.
__device__ int line_property(const DeviceSpec &s, std::uint64_t draw_index) {
    const double u = unit_fraction(draw(s.stream, draw_index));
    if (s.distribution == Distribution::Mixed)
        return mixed_min_exponent + static_cast<int>(floor(__dmul_rn(u, static_cast<double>(mixed_exponents))));
    return u < zero_line_fraction ? 1 : 0;
}

__device__ float element_value(const DeviceSpec &s, std::size_t element, int row, int col) {
    const std::uint64_t before = s.first_element + static_cast<std::uint64_t>(element) * s.draws * golden_gamma;
    switch (s.distribution) {
    case Distribution::Normal: {
        double sum = 0;
        for (int k = 0; k < normal_draws; ++k) sum = __dadd_rn(sum, unit_fraction(draw(before, k)));
        return __double2float_rn(__dadd_rn(sum, -6.0));
    }
    case Distribution::Mixed: {
        const int exponent = line_property(s, row) + line_property(s, static_cast<std::uint64_t>(s.rows) + col);
        return __double2float_rn(ldexp(signed_unit(draw(before, 0)), exponent));
    }
    case Distribution::Sparse: {
        const bool kept = unit_fraction(draw(before, 0)) < s.density;
        const double value = signed_unit(draw(before, 1));
        const bool zero_line = line_property(s, row) || line_property(s, static_cast<std::uint64_t>(s.rows) + col);
        return kept && !zero_line ? __double2float_rn(value) : 0.0f;
    }
    case Distribution::Integers: {
        const double u = unit_fraction(draw(before, 0));
        return __double2float_rn(__dadd_rn(s.low, floor(__dmul_rn(u, s.integer_range))));
    }
    default: {
        const double u = unit_fraction(draw(before, 0));
        return __double2float_rn(__dadd_rn(s.low, __dmul_rn(s.width, u)));
    }
    }
}

__global__ void generate(DeviceSpec s, float *values) {
    const std::size_t count = static_cast<std::size_t>(s.rows) * s.cols;
    for (std::size_t e = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; e < count;
         e += std::size_t(gridDim.x) * blockDim.x) {
        int row = static_cast<int>(e / s.cols), col = static_cast<int>(e % s.cols);
        // A structured matrix's element is a zero or the generated value of its source.
        const bool kept = s.structure != Structure::Masked || masked_keeps(s.stream, e, s.mask_density);
        values[e] = kept && structured_source(s.structure, row, col)
                        ? element_value(s, static_cast<std::size_t>(row) * s.cols + col, row, col)
                        : 0.0f;
    }
}

} // namespace

void generate_on_device(const GeneratorSpec &spec, int input_set, MatrixId matrix, int rows, int cols,
                        float *device_values) {
    DeviceSpec s{};
    s.distribution = spec.distribution;
    s.low = spec.low;
    s.width = spec.high - spec.low;
    s.integer_range = spec.high - spec.low + 1.0; // the CPU's (high − low) + 1.0, the same two roundings
    s.density = spec.density;
    s.stream = stream_state(spec.seed, input_set, matrix);
    s.first_element = s.stream;
    if (has_line_preamble(spec.distribution))
        s.first_element += golden_gamma * (static_cast<std::uint64_t>(rows) + static_cast<std::uint64_t>(cols));
    s.draws = static_cast<std::uint64_t>(draws_per_element(spec.distribution));
    s.rows = rows;
    s.cols = cols;
    s.structure = structure_for(spec, matrix);
    s.mask_density = spec.mask_density;
    const std::size_t count = static_cast<std::size_t>(rows) * cols;
    const int threads = 256;
    const std::size_t blocks = std::min<std::size_t>((count + threads - 1) / threads, 65536);
    generate<<<static_cast<unsigned>(blocks), threads>>>(s, device_values);
    cuda_check(cudaGetLastError(), "generating inputs on the GPU");
}

} // namespace gemm
