// expect: AC
// cases: secret/01-m-is-one secret/32-long-reduction
// min-time-ratio: 0.95
// compare-with: persisting-l2-window-yardstick.cu
// Asks the L2 to keep A and B between calls (pygpubench PR #49): raises its context's
// persisting L2 limit to the device's maximum, and launches the naive kernel on a stream
// whose access-policy window covers A and B with hitProp persisting. A persisting line is
// not evicted by normal-priority writes, so a flush that only writes a buffer twice the
// L2's size leaves it cached: the next call, whose inputs the referee writes at the same
// addresses, would find them in the L2 and look faster than a cold call. The cases are
// small enough (A and B 8–17 MB) to fit in the set-aside part of an H100's or H200's L2,
// and the naive kernel waits on every load, so a warm L2 would show in its time.
// Why the judge must hold: before its flush the referee demotes every line of the memory
// it shares with the runners to normal priority (applypriority.L2::evict_normal, by
// physical address, so across contexts) and resets its own context's persisting lines;
// the flush then evicts A and B like any other line. So the answer is AC and the time
// honest: its median at least 0.95× that of persisting-l2-window-yardstick.cu, the same
// launches on the same kind of stream without the window.
#include "naive_kernel.cuh"

#include <algorithm>
#include <cstdint>

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static int max_window = 0, max_persisting = 0;
    static cudaStream_t stream = [] {
        int device = 0;
        cudaGetDevice(&device);
        cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, device);
        cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device);
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(max_persisting));
        cudaStream_t s;
        cudaStreamCreate(&s);
        return s;
    }();
    // One window from the first input's start to the last one's end: A and B lie together in
    // the memory the judge hands out. Where it is larger than the set-aside L2, only that
    // share of it is asked to persist, so the persisting lines do not evict each other.
    const auto a = reinterpret_cast<std::uintptr_t>(A), b = reinterpret_cast<std::uintptr_t>(B);
    const std::uintptr_t begin = std::min(a, b);
    const std::uintptr_t end = std::max(a + sizeof(float) * M * N, b + sizeof(float) * N * K);
    const std::size_t bytes = std::min<std::size_t>(end - begin, static_cast<std::size_t>(max_window));
    cudaStreamAttrValue attribute = {};
    attribute.accessPolicyWindow.base_ptr = reinterpret_cast<void *>(begin);
    attribute.accessPolicyWindow.num_bytes = bytes;
    attribute.accessPolicyWindow.hitRatio = bytes == 0 ? 0.0f : std::min(1.0f, float(max_persisting) / float(bytes));
    attribute.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attribute.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attribute);
    launch_naive(A, B, C, M, N, K, stream);
    cudaStreamSynchronize(stream);
}
