// The stand-in call's kernel (channel/runner_protocol.hpp, RunnerWork::StandIn): A and B
// read once, every SM busy for a set time, then C written with the poison, as the empty
// call writes it. It
// stands in for a solution of that length when the referee measures what a call costs
// beyond its own work; it runs only in the baseline runner, which never loads a solution.
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

namespace gemm {

struct StandInBuffers {
    const float *A, *B;
    float *C;
    std::size_t a_elements, b_elements, c_elements;
};

cudaError_t launch_stand_in(const StandInBuffers &buffers, unsigned long long busy_ns, int multiprocessors);

} // namespace gemm
