// Functions that the CPU and the GPU must compute identically (the generator, the
// per-element check) are written once and marked GEMM_HOST_DEVICE: nvcc compiles them
// for both sides, a plain C++ compiler sees ordinary inline functions.
#pragma once

#if defined(__CUDACC__)
#define GEMM_HOST_DEVICE __host__ __device__
#else
#define GEMM_HOST_DEVICE
#endif
