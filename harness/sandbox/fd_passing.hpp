// Descriptors across processes (SCM_RIGHTS over a unix socket): the runner hands its
// seccomp listener to the judge, the referee hands GPU-memory descriptors to the runner.
// send_fd / receive_fd are for SOCK_SEQPACKET or SOCK_DGRAM sockets, where one call is one
// message; the two primitives under them also serve the referee's stream socket to the
// runner (channel/socket_channel.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gemm::sandbox {

// Writes every byte of `data` (a stream socket may take it in parts); `fd`, when not -1,
// travels in the control data of the first part. False with errno set on failure.
bool send_with_descriptor(int socket, const char *data, std::size_t size, int fd);

// One recvmsg of at most `size` bytes; the descriptors that came along are appended to
// `fds` (close-on-exec), room made for `room` of them: the kernel closes any beyond, and
// `truncated` says so. `bytes` is recvmsg's result (0 at the end, -1 on error).
struct Received {
    ssize_t bytes = -1;
    bool truncated = false;
};
Received receive_with_descriptors(int socket, char *buffer, std::size_t size, std::vector<int> &fds, std::size_t room);

// Sends `fd` with `payload` (at least one byte: the descriptor travels with data). False
// with errno set on failure.
bool send_fd(int socket, int fd, const std::string &payload);

// The descriptor of the next message (close-on-exec) and its payload; -1 when the message
// carried none, or on error or end of stream. Extra descriptors a hostile sender attached
// are closed, never leaked.
int receive_fd(int socket, std::string &payload);

} // namespace gemm::sandbox
