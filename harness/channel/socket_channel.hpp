// JSON lines over a unix stream socket that can also carry file descriptors
// (SCM_RIGHTS): the channel between the referee and a runner, which hands the runner
// the GPU memory of A, B and C as descriptors of CUDA allocations.
#pragma once

#include <nlohmann/json.hpp>

#include <deque>
#include <optional>
#include <string>

namespace gemm {

class SocketChannel {
  public:
    explicit SocketChannel(int fd) : fd_(fd) {}
    ~SocketChannel();
    SocketChannel(const SocketChannel &) = delete;
    SocketChannel &operator=(const SocketChannel &) = delete;

    int fd() const { return fd_; }
    // False once the other end is gone.
    bool send(const nlohmann::json &message, int attached_fd = -1);
    // The next message, or nullopt at end of stream. A line that is not JSON throws
    // std::runtime_error (the caller decides whose fault it is).
    std::optional<nlohmann::json> receive();
    // Waits until a message (or the end) can be read, spinning for up to `spin_ms`
    // (counted again from a SIGCONT) and then returning to let receive() sleep: a
    // sleeping thread wakes late, and where that lateness lies between a clock's
    // stamps it would be counted.
    void await_readable(double spin_ms);
    // Whether a message (or the end) can be read now, without waiting.
    bool readable_now();
    // A descriptor that arrived with the messages so far (oldest first), or -1. The
    // caller owns it.
    int take_fd();

  private:
    bool read_more();
    int fd_;
    std::string pending_;
    std::deque<int> fds_;
    static constexpr std::size_t max_line_bytes = 1 << 20; // a line longer than this is not ours
};

} // namespace gemm
