// expect: RE
// cases: sample/01-one-by-one sample/02-small-explicit secret/04-primes
// detail: while loading the solution, before any call of solve()
// A static constructor calls exit(1) as the library loads: the solution's process never
// reaches solve(). Reported once, with what it did, every case RE for that one reason, and
// judged in seconds: one start, not one per case.
#include "naive_kernel.cuh"

#include <cstdlib>

namespace {
struct ExitAtLoad {
    ExitAtLoad() { std::exit(1); }
} exit_at_load;
} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
