#include "channel/socket_channel.hpp"

#include <cerrno>
#include <chrono>
#include <poll.h>
#include <cstring>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace gemm {

namespace {

// One sendmsg with an optional descriptor in its control data.
bool send_with_fd(int socket, const char *data, std::size_t size, int fd) {
    iovec iov{const_cast<char *>(data), size};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (fd >= 0) {
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        cmsghdr *c = CMSG_FIRSTHDR(&msg);
        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(c), &fd, sizeof(int));
    }
    for (;;) {
        const ssize_t n = sendmsg(socket, &msg, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (static_cast<std::size_t>(n) == size) return true;
        // A partial write: the descriptor went with the first part; send the rest plainly.
        for (std::size_t sent = static_cast<std::size_t>(n); sent < size;) {
            const ssize_t m = ::send(socket, data + sent, size - sent, MSG_NOSIGNAL);
            if (m < 0 && errno == EINTR) continue;
            if (m <= 0) return false;
            sent += static_cast<std::size_t>(m);
        }
        return true;
    }
}

// One recvmsg: the bytes into `bytes`, every descriptor that came along into `fds`.
ssize_t receive_with_fds(int socket, char *buffer, std::size_t size, std::deque<int> &fds) {
    iovec iov{buffer, size};
    msghdr msg{};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 8)];
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
    while (n < 0 && errno == EINTR);
    for (cmsghdr *c = CMSG_FIRSTHDR(&msg); n >= 0 && c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int fd;
            std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
            fds.push_back(fd);
        }
    }
    return n;
}

} // namespace

SocketChannel::~SocketChannel() {
    for (int fd : fds_) close(fd);
}

bool SocketChannel::send(const nlohmann::json &message, int attached_fd) {
    const std::string line = message.dump() + "\n";
    return send_with_fd(fd_, line.data(), line.size(), attached_fd);
}

bool SocketChannel::read_more() {
    char buffer[65536];
    const ssize_t n = receive_with_fds(fd_, buffer, sizeof buffer, fds_);
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

int SocketChannel::take_fd() {
    if (fds_.empty()) return -1;
    const int fd = fds_.front();
    fds_.pop_front();
    return fd;
}

} // namespace gemm
