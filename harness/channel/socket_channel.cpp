#include "channel/socket_channel.hpp"
#include "sandbox/fd_passing.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace gemm {

namespace {

// Room for the descriptors one read may bring: the referee sends one per map order.
constexpr std::size_t descriptor_room = 8;

} // namespace

SocketChannel::~SocketChannel() {
    for (int fd : fds_) close(fd);
}

bool SocketChannel::send(const nlohmann::json &message, int attached_fd) {
    const std::string line = message.dump() + "\n";
    return sandbox::send_with_descriptor(fd_, line.data(), line.size(), attached_fd);
}

bool SocketChannel::read_more() {
    char buffer[65536];
    std::vector<int> arrived;
    const ssize_t n = sandbox::receive_with_descriptors(fd_, buffer, sizeof buffer, arrived, descriptor_room).bytes;
    fds_.insert(fds_.end(), arrived.begin(), arrived.end());
    if (n <= 0) return false;
    pending_.append(buffer, static_cast<std::size_t>(n));
    return true;
}

std::optional<nlohmann::json> SocketChannel::receive() {
    for (;;) {
        if (const auto newline = pending_.find('\n'); newline != std::string::npos) {
            const std::string line = pending_.substr(0, newline);
            pending_.erase(0, newline + 1);
            auto parsed = nlohmann::json::parse(line, nullptr, false);
            if (parsed.is_discarded() || !parsed.is_object())
                throw std::runtime_error("not a message of the protocol: " + line.substr(0, 120));
            return parsed;
        }
        if (pending_.size() > max_line_bytes) throw std::runtime_error("a line of over 1 MiB without an end");
        if (!read_more()) return std::nullopt;
    }
}

void SocketChannel::await_readable(double spin_ms) {
    if (pending_.find('\n') != std::string::npos) return;
    using clock = std::chrono::steady_clock;
    const auto spin = std::chrono::duration_cast<clock::duration>(std::chrono::duration<double, std::milli>(spin_ms));
    auto last = clock::now(), until = last + spin;
    pollfd ready{fd_, POLLIN, 0};
    while (poll(&ready, 1, 0) == 0) {
        const auto now = clock::now();
        // A gap means the process was stopped (SIGSTOP between exchanges) and has just
        // been continued: the spin starts again from now.
        if (now - last > std::chrono::milliseconds(1)) until = now + spin;
        if (now >= until) return;
        last = now;
    }
}

bool SocketChannel::readable_now() {
    if (pending_.find('\n') != std::string::npos) return true;
    pollfd ready{fd_, POLLIN, 0};
    return poll(&ready, 1, 0) != 0;
}

int SocketChannel::take_fd() {
    if (fds_.empty()) return -1;
    const int fd = fds_.front();
    fds_.pop_front();
    return fd;
}

} // namespace gemm
