#include "runner/empty_kernel.hpp"

namespace gemm {

namespace {
__global__ void do_nothing() {}
} // namespace

void launch_empty_kernel() { do_nothing<<<1, 1>>>(); }

} // namespace gemm
