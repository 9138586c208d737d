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

bool send_fd(int socket, int fd, const std::string &payload) {
    if (payload.empty() || payload.size() > max_payload) {
        errno = EINVAL;
        return false;
    }
    iovec data{const_cast<char *>(payload.data()), payload.size()};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(header), &fd, sizeof fd);
    ssize_t sent;
    do sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent == static_cast<ssize_t>(payload.size());
}

int receive_fd(int socket, std::string &payload) {
    char buffer[max_payload];
    iovec data{buffer, sizeof buffer};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * max_descriptors)] = {};
    msghdr message{};
    message.msg_iov = &data;
    message.msg_iovlen = 1;
    message.msg_control = control;
    message.msg_controllen = sizeof control;
    ssize_t received;
    do received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    while (received < 0 && errno == EINTR);
    if (received <= 0) return -1;
    int kept = -1;
    for (cmsghdr *h = CMSG_FIRSTHDR(&message); h; h = CMSG_NXTHDR(&message, h)) {
        if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS) continue;
        const std::size_t count = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (std::size_t i = 0; i < count; ++i) {
            int fd;
            std::memcpy(&fd, CMSG_DATA(h) + i * sizeof(int), sizeof fd);
            if (kept < 0)
                kept = fd;
            else
                close(fd);
        }
    }
    if ((message.msg_flags & MSG_CTRUNC) != 0 && kept >= 0) { // more than we make room for: not ours
        close(kept);
        kept = -1;
    }
    payload.assign(buffer, static_cast<std::size_t>(received));
    return kept;
}

} // namespace gemm::sandbox
