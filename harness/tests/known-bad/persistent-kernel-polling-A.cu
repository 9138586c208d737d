// expect: TLE
// cases: secret/04-primes
// detail: ran past the time limit
// Starts its work before the call. A constructor (through a thread, so the launch comes
// after the library's kernels are registered) launches a persistent one-block kernel on
// a non-blocking stream that never ends: it spins on A's first element — A, B, C and the
// shape come from solve() through mapped host memory, from the first call on — and
// computes C the moment A changes, that is while the referee is still copying in the next
// call's inputs, before "call" is sent. solve() only publishes the call's pointers, bumps
// a generation and waits until the kernel has finished a pass begun after that (so C is
// right: a pass begun on half-copied inputs is followed by one on the whole of them);
// only if the kernel never answers does solve() compute C itself.
// Why the judge must hold: the clock starts before the inputs exist, so work begun early
// is still timed; and the kernel is work the solution's process keeps on the GPU between
// calls, which the judge names — RE, "work was still running after solve() returned".
#include "naive_kernel.cuh"

#include <atomic>
#include <chrono>
#include <mutex>
#include <system_error>
#include <thread>

namespace {

// Written by solve() on the host, read by the kernel through the mapped pointer.
struct Control {
    const float *A;
    const float *B;
    float *C;
    int M, N, K;
    unsigned long long requested; // the generation solve() is waiting for
    unsigned long long finished;  // the generation published before the kernel's last pass began
};

constexpr unsigned long long watchdog_ns = 60ull * 1000 * 1000 * 1000;

__device__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void persistent_gemm(volatile Control *control) {
    __shared__ int action; // 1: compute, -1: stop
    __shared__ unsigned long long generation;
    unsigned int last_bits = 0;
    bool seen = false;
    unsigned long long computed = 0;
    const unsigned long long started = global_ns();
    for (;;) {
        if (threadIdx.x == 0) {
            action = 0;
            while (action == 0) {
                const float *A = control->A;
                generation = control->requested;
                if (A) {
                    const unsigned int bits = __float_as_uint(__ldcv(A));
                    if (!seen || bits != last_bits) action = 1;
                    last_bits = bits;
                    seen = true;
                }
                if (generation != computed) action = 1;
                if (global_ns() - started > watchdog_ns) action = -1;
                if (action == 0) __nanosleep(2000);
            }
        }
        __syncthreads();
        if (action < 0) return;
        const float *A = control->A, *B = control->B;
        float *C = control->C;
        const int M = control->M, N = control->N, K = control->K;
        for (int e = threadIdx.x; e < M * K; e += blockDim.x) {
            const int row = e / K, col = e % K;
            float sum = 0.0f;
            // L2, not L1: an SM's L1 would still hold the previous call's inputs.
            for (int p = 0; p < N; ++p) sum += __ldcg(A + (size_t)row * N + p) * __ldcg(B + (size_t)p * K + col);
            C[(size_t)row * K + col] = sum;
        }
        __threadfence_system();
        __syncthreads();
        if (threadIdx.x == 0) {
            computed = generation;
            control->finished = generation;
        }
        __syncthreads();
    }
}

Control *control = nullptr; // mapped host memory
unsigned long long generation = 0;
std::once_flag started;

void start_persistent_kernel() {
    std::call_once(started, [] {
        Control *mapped = nullptr;
        if (cudaHostAlloc(&mapped, sizeof(Control), cudaHostAllocMapped) != cudaSuccess) return;
        *mapped = Control{};
        control = mapped;
        Control *device_view = nullptr;
        cudaHostGetDevicePointer(&device_view, mapped, 0);
        cudaStream_t stream;
        cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        persistent_gemm<<<1, 256, 0, stream>>>(device_view);
        std::fprintf(stderr, "hostile: persistent kernel launched: %s\n", cudaGetErrorString(cudaGetLastError()));
    });
}

// Where no thread may be started, solve() launches the kernel on its first call instead.
__attribute__((constructor)) void launch_at_load() {
    try {
        std::thread(start_persistent_kernel).detach();
    } catch (const std::system_error &) {
    }
}

void compute_here(const float *A, const float *B, float *C, int M, int N, int K) {
    std::fprintf(stderr, "hostile: no answer from the persistent kernel; computing C in solve()\n");
    launch_naive(A, B, C, M, N, K);
    cudaStreamSynchronize(0); // the legacy stream: waiting for the whole device would wait forever
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    start_persistent_kernel();
    if (!control) return compute_here(A, B, C, M, N, K);
    volatile Control *c = control;
    c->A = A;
    c->B = B;
    c->C = C;
    c->M = M;
    c->N = N;
    c->K = K;
    std::atomic_thread_fence(std::memory_order_seq_cst);
    c->requested = ++generation;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (c->finished != generation)
        if (std::chrono::steady_clock::now() > deadline) return compute_here(A, B, C, M, N, K);
}
