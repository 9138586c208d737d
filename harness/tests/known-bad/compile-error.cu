// expect: CE
// detail: error
// Does not compile: nvcc's message must reach the user.
#include <cuda_runtime.h>

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    undeclared_kernel<<<1, 1>>>(A, B, C, M, N, K);
}
