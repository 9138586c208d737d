#include "referee/trusted_clock.hpp"

namespace gemm {

namespace {

__global__ void write_globaltimer(unsigned long long *slot) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    *slot = now;
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
}

TrustedClock::~TrustedClock() { cudaFreeHost(host_stamps_); }

void TrustedClock::flush_l2() {
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
