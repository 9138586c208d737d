// The clock the judge believes: %globaltimer stamps written by the referee's own
// kernels on the referee's stream, the start before the call's inputs exist in the
// solution's memory, the stop after the snapshot of C that the checks read. Work that
// produced the checked output therefore lies between the two stamps, whatever stream
// or process it ran on (CUDA events cannot time across processes). Two stamps between
// them split a call into its phases, so the judge's own cost can be seen next to the
// runner's: the inputs handed out, the runner's turn, the snapshot.
#pragma once

#include "referee/cuda_check.hpp"
#include "verification/case_result.hpp"

namespace gemm {

class TrustedClock {
  public:
    explicit TrustedClock(std::size_t l2_bytes);
    ~TrustedClock();
    TrustedClock(const TrustedClock &) = delete;
    TrustedClock &operator=(const TrustedClock &) = delete;

    // Writes a buffer twice the L2's size, so nothing of the last call is still cached. First
    // demotes every persisting line of the arena the runners see (`arena`, `bytes`) to normal:
    // a solution's access-policy window would otherwise keep A and B in the L2 through the write.
    void flush_l2(const void *arena, std::size_t bytes);
    void start();             // enqueues the start stamp
    void inputs_handed_out(); // after the inputs' copies: the runner's turn begins
    void runner_answered();   // enqueued once the runner said "returned": its turn is over
    void stop();              // enqueues the stop stamp
    // Waits for the stream; the time between the stamps, whole and by phase.
    CallClock elapsed();
    // Keeps the SMs busy for about `ms` so the clocks leave their idle state before
    // anything is measured.
    void warm_up(double ms);

  private:
    DeviceArray<unsigned char> flush_buffer_;
    bool persisting_l2_ = false;          // the GPU can set aside L2 for persisting lines (sm_80 on)
    static constexpr int stamp_count = 4; // start, inputs handed out, runner answered, stop
    void stamp(int slot, const char *what);
    DeviceArray<unsigned long long> stamps_;
    unsigned long long *host_stamps_ = nullptr;
    // The legacy default stream, the one every other operation of the referee is on,
    // so the stamps are ordered with the copies and checks around them.
    static constexpr cudaStream_t stream_ = nullptr;
};

} // namespace gemm
