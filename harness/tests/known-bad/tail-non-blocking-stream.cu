// expect: AC
// cases: secret/16-around-2048
// min-time-ratio: 0.97
// compare-with: naive-split-rows.cu
// Computes the first 95% of C's rows on the legacy stream and the last 5% on a
// cudaStreamNonBlocking stream started after, and returns without waiting for either:
// a clock that stopped when solve() returned, or that waited on the legacy stream only
// (an event recorded there, cudaStreamSynchronize(0)), would miss the tail, and one that
// waited on neither would miss it all.
// Why the judge must hold: the runner waits for the whole device (cudaDeviceSynchronize,
// every stream of its context) before it answers "returned", and the referee's stop stamp
// follows its snapshot of C. So the answer is AC and the time honest: its median at least
// 0.97× that of naive-split-rows.cu, the same launches waited for.
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
}
