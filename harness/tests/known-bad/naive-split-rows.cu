// expect: AC
// cases: secret/16-around-2048
// Not broken: the yardstick for tail-non-blocking-stream.cu. The same two launches — the
// first 95% of C's rows on the legacy stream, the last 5% on a non-blocking stream
// started after — but waited for before returning, so the two files differ only in
// whether solve() waits, and the honest time of one is the time of the other.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static cudaStream_t tail = [] {
        cudaStream_t s;
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
        return s;
    }();
    const int head_rows = static_cast<int>(static_cast<long long>(M) * 95 / 100);
    launch_naive_rows(A, B, C, 0, head_rows, N, K);
    launch_naive_rows(A, B, C, head_rows, M, N, K, tail);
    cudaDeviceSynchronize();
}
