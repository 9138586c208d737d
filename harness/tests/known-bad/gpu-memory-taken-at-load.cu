// expect: RE
// cases: sample/02-small-explicit secret/04-primes
// detail: the solution's process holds
// A constructor takes all the GPU memory it can get, before the judge has allocated a case's
// inputs: the referee's allocation fails. That is the solution's doing, named with the
// figures (verification/memory_blame.hpp), never the judge's JE.
#include "naive_kernel.cuh"

#include <vector>

namespace {

struct TakeAllMemory {
    std::vector<void *> blocks;
    TakeAllMemory() {
        for (std::size_t bytes = std::size_t(1) << 30; bytes >= (std::size_t(1) << 20);) {
            void *block = nullptr;
            if (cudaMalloc(&block, bytes) == cudaSuccess)
                blocks.push_back(block);
            else
                bytes /= 2;
        }
        cudaGetLastError();
    }
} taken;

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
