// expect: RE
// cases: sample/02-small-explicit
// detail: an illegal memory access was encountered
// A kernel that writes through a null pointer: a sticky CUDA error in the worker.
#include <cuda_runtime.h>

__global__ void write_through_null(float *C) { *(reinterpret_cast<float *>(0x10) + threadIdx.x) = C[0]; }

extern "C" void solve(const float *, const float *, float *C, int, int, int) {
    write_through_null<<<1, 32>>>(C);
    cudaDeviceSynchronize();
}
