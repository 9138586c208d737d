// expect: TLE
// cases: sample/01-one-by-one
// detail: ran past the time limit
// A kernel that never finishes: the judge must kill the worker, give TLE, and go on.
#include <cuda_runtime.h>

__global__ void spin_forever(volatile int *flag) {
    while (*flag == 0) {
    }
}

extern "C" void solve(const float *, const float *, float *, int, int, int) {
    int *flag = nullptr;
    cudaMalloc(&flag, sizeof(int));
    cudaMemset(flag, 0, sizeof(int));
    spin_forever<<<1, 1>>>(flag);
    cudaDeviceSynchronize();
}
