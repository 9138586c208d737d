#include "sandbox/fd_passing.hpp"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

namespace gemm::sandbox {

namespace {

constexpr std::size_t max_payload = 4096;
constexpr std::size_t max_descriptors = 16; // room to notice, and close, more than one

} // namespace

bool send_with_descriptor(int socket, const char *data, std::size_t size, int fd) {
    iovec iov{const_cast<char *>(data), size};
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    if (fd >= 0) {
        message.msg_control = control;
        message.msg_controllen = sizeof control;
        cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        std::memcpy(CMSG_DATA(header), &fd, sizeof fd);
    }
    ssize_t sent;
    do sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    if (sent < 0) return false;
    // A partial write: the descriptor went with the first part; the rest goes plainly.
    for (std::size_t done = static_cast<std::size_t>(sent); done < size;) {
        const ssize_t more = ::send(socket, data + done, size - done, MSG_NOSIGNAL);
        if (more < 0 && errno == EINTR) continue;
        if (more <= 0) return false;
        done += static_cast<std::size_t>(more);
    }
    return true;
}

Received receive_with_descriptors(int socket, char *buffer, std::size_t size, std::vector<int> &fds, std::size_t room) {
    iovec iov{buffer, size};
    std::vector<char> control(CMSG_SPACE(sizeof(int) * room));
    msghdr message{};
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    Received r;
    do r.bytes = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    while (r.bytes < 0 && errno == EINTR);
    if (r.bytes < 0) return r;
    for (cmsghdr *h = CMSG_FIRSTHDR(&message); h; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int fd;
            std::memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof fd);
            fds.push_back(fd);
        }
    }
    r.truncated = (message.msg_flags & MSG_CTRUNC) != 0;
    return r;
}

bool send_fd(int socket, int fd, const std::string &payload) {
    if (payload.empty() || payload.size() > max_payload) {
        errno = EINVAL;
        return false;
    }
    return send_with_descriptor(socket, payload.data(), payload.size(), fd);
}

int receive_fd(int socket, std::string &payload) {
    char buffer[max_payload];
    std::vector<int> fds;
    const Received r = receive_with_descriptors(socket, buffer, sizeof buffer, fds, max_descriptors);
    // One descriptor is ours; extra ones, or any when more came than there was room for
    // (the kernel dropped the rest: not a message of ours), are closed.
    const bool keep = r.bytes > 0 && !r.truncated && !fds.empty();
    for (std::size_t i = keep ? 1 : 0; i < fds.size(); ++i) close(fds[i]);
    if (r.bytes <= 0) return -1;
    payload.assign(buffer, static_cast<std::size_t>(r.bytes));
    return keep ? fds.front() : -1;
}

} // namespace gemm::sandbox
