// expect: AC
// cases: secret/16-around-2048
// A correct kernel on a non-blocking stream, returned from without waiting: the
// answer is right once the device is idle, and the time must still include the work
// (the runner waits for every stream of its context before it says "returned", and the
// referee's clock stops only after the snapshot of C).
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static cudaStream_t side = [] {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return s;
    }();
    launch_naive(A, B, C, M, N, K, side);
}
