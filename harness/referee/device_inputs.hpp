// The documented generator (common/rng.hpp, testcases/README.md) on the GPU: every call
// of solve() gets fresh inputs without a trip through the host. Bit for bit the CPU
// generator's numbers (a GPU test compares them for every distribution): each thread
// computes its element's draws directly, SplitMix64's draw k being mix(s₀ + (k+1)·γ).
#pragma once

#include "common/rng.hpp"

namespace gemm {

// rows×cols row-major values of one matrix of one input set, written to `device_values`.
void generate_on_device(const GeneratorSpec &spec, int input_set, MatrixId matrix, int rows, int cols,
                        float *device_values);

} // namespace gemm
