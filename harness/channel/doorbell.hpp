// A call's "go" and "done" as two counters in one page of shared memory (a memfd the
// referee makes and hands the runner once): rung and seen without a system call or a
// message to read, so that the host's share of a call's time, which drifts with the
// machine's load, is a few loads and stores (docs/perf-notes.md, runs W–Z). Everything
// else the runner says still travels as a message on its socket, read after the stamps.
// The page is the runner's to write too: the referee only ever compares `done` with the
// call it is waiting for, and a runner that rings early gains nothing (the clock stops
// after the snapshot of C, which is taken after the runner's answer is read).
#pragma once

#include <atomic>
#include <cstdint>

namespace gemm {

class Doorbell {
  public:
    Doorbell() = default;
    ~Doorbell();
    Doorbell(const Doorbell &) = delete;
    Doorbell &operator=(const Doorbell &) = delete;

    // The referee's: a new page, and a descriptor of it for the runner (the caller
    // closes it). False when the system refuses.
    bool create();
    int share() const;
    // The runner's: the page behind a descriptor it was handed (it owns and closes fd).
    bool attach(int fd);
    bool attached() const { return page_ != nullptr; }

    void ring_go(std::uint64_t call) { page_->go.store(call, std::memory_order_release); }
    bool go_rung(std::uint64_t call) const { return page_->go.load(std::memory_order_acquire) == call; }
    void ring_done(std::uint64_t call) { page_->done.store(call, std::memory_order_release); }
    bool done_rung(std::uint64_t call) const { return page_->done.load(std::memory_order_acquire) == call; }

  private:
    struct Page {
        alignas(64) std::atomic<std::uint64_t> go{0};
        alignas(64) std::atomic<std::uint64_t> done{0};
    };
    static_assert(std::atomic<std::uint64_t>::is_always_lock_free, "the counters are shared between processes");
    bool map(int fd);
    Page *page_ = nullptr;
    int fd_ = -1; // the referee's, kept to hand out
};

} // namespace gemm
