// expect: AC
// cases: secret/01-m-is-one secret/32-long-reduction
// Not broken: the yardstick for persisting-l2-window.cu. The same launch of the naive
// kernel on a stream of its own, created once and synchronized before returning, but with
// no access-policy window and the persisting L2 limit left as it is, so the two files
// differ only in what they ask the L2 to keep, and the honest time of one is the time of
// the other.
#include "naive_kernel.cuh"

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static cudaStream_t stream = [] {
        cudaStream_t s;
        cudaStreamCreate(&s);
        return s;
    }();
    launch_naive(A, B, C, M, N, K, stream);
    cudaStreamSynchronize(stream);
}
