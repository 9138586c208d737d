#include "referee/trusted_clock.hpp"

#include <algorithm>
#include <cstdint>

namespace gemm {

namespace {

__global__ void write_globaltimer(unsigned long long *slot) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    *slot = now;
}

// The L2 is physically addressed, so a line another context pinned is demoted through the
// referee's mapping of the same memory; applypriority only marks lines the L2 holds.
__global__ void demote_persisting_lines(const unsigned char *first_line, std::size_t lines) {
#if __CUDA_ARCH__ >= 800 // no persisting L2 before sm_80
    for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < lines;
         i += std::size_t(gridDim.x) * blockDim.x)
        asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(first_line + i * 128) : "memory");
#endif
}

__global__ void spin_until(unsigned long long end_ns) {
    unsigned long long now;
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    while (now < end_ns);
}

unsigned long long device_now_ns(cudaStream_t stream, unsigned long long *device_slot, unsigned long long *host) {
    write_globaltimer<<<1, 1, 0, stream>>>(device_slot);
    cuda_check(cudaMemcpyAsync(host, device_slot, sizeof *host, cudaMemcpyDeviceToHost, stream), "clock read");
    cuda_check(cudaStreamSynchronize(stream), "clock read");
    return *host;
}

} // namespace

TrustedClock::TrustedClock(std::size_t l2_bytes) : flush_buffer_(2 * l2_bytes), stamps_(stamp_count) {
    cuda_check(cudaMallocHost(&host_stamps_, stamp_count * sizeof(unsigned long long)), "cudaMallocHost");
    int device = 0, max_persisting = 0;
    cuda_check(cudaGetDevice(&device), "cudaGetDevice");
    cuda_check(cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, device),
               "persisting L2 size");
    persisting_l2_ = max_persisting > 0;
    // No L2 set aside in the referee's context: none of its lines persist, its flush gets the whole L2.
    if (persisting_l2_) cuda_check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0), "persisting L2 limit");
}

TrustedClock::~TrustedClock() { cudaFreeHost(host_stamps_); }

void TrustedClock::flush_l2(const void *arena, std::size_t bytes) {
    if (persisting_l2_ && bytes > 0) {
        // Persisting lines survive a normal-priority write, so the arena's lose that status first.
        const auto begin = reinterpret_cast<std::uintptr_t>(arena) & ~std::uintptr_t(127);
        const std::size_t lines = (reinterpret_cast<std::uintptr_t>(arena) + bytes - begin + 127) / 128;
        const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((lines + 255) / 256, 1024));
        demote_persisting_lines<<<blocks, 256, 0, stream_>>>(reinterpret_cast<const unsigned char *>(begin), lines);
        cuda_check(cudaGetLastError(), "L2 demotion");
        // And any line of the referee's own context that is still persisting, whatever its address.
        cuda_check(cudaCtxResetPersistingL2Cache(), "L2 persisting reset");
    }
    cuda_check(cudaMemsetAsync(flush_buffer_.data(), 0, flush_buffer_.size(), stream_), "L2 flush");
}

void TrustedClock::stamp(int slot, const char *what) {
    write_globaltimer<<<1, 1, 0, stream_>>>(stamps_.data() + slot);
    cuda_check(cudaGetLastError(), what);
}

void TrustedClock::start() { stamp(0, "start stamp"); }
void TrustedClock::inputs_handed_out() { stamp(1, "hand-out stamp"); }
void TrustedClock::runner_answered() { stamp(2, "answer stamp"); }
void TrustedClock::stop() { stamp(3, "stop stamp"); }

CallClock TrustedClock::elapsed() {
    cuda_check(cudaMemcpyAsync(host_stamps_, stamps_.data(), stamp_count * sizeof(unsigned long long),
                               cudaMemcpyDeviceToHost, stream_),
               "stamp read");
    cuda_check(cudaStreamSynchronize(stream_), "stamp read");
    const auto ms = [&](int from, int to) { return double(host_stamps_[to] - host_stamps_[from]) * 1e-6; };
    CallClock c;
    c.total_ms = ms(0, 3);
    c.hand_out_ms = ms(0, 1);
    c.runner_turn_ms = ms(1, 2);
    c.snapshot_ms = ms(2, 3);
    return c;
}

void TrustedClock::warm_up(double ms) {
    const unsigned long long now = device_now_ns(stream_, stamps_.data(), host_stamps_);
    spin_until<<<132 * 4, 128, 0, stream_>>>(now + static_cast<unsigned long long>(ms * 1e6));
    cuda_check(cudaStreamSynchronize(stream_), "warm-up");
}

} // namespace gemm
