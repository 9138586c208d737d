// The calibration call's kernels (channel/runner_protocol.hpp, RunnerWork::Calibration): every SM
// busy for a set time doing one kind of work (measurement/calibration_kind.hpp), A and B read, then C
// written with the poison, as the empty call writes it. They stand in for a solution of
// that length when the referee measures what a call costs beyond its own work; they run
// only in the baseline runner, which never loads a solution.
#pragma once

#include <cstddef>
#include <cuda_runtime.h>

#include "measurement/calibration_kind.hpp"

namespace gemm {

struct CalibrationBuffers {
    const float *A, *B;
    float *C;
    std::size_t a_elements, b_elements, c_elements;
};

cudaError_t launch_calibration_kernel(const CalibrationBuffers &buffers, unsigned long long busy_ns,
                                      int multiprocessors, CalibrationKind kind);

} // namespace gemm
