// Descriptors across processes (SCM_RIGHTS over a unix socket): the runner hands its
// seccomp listener to the judge, the referee hands GPU-memory descriptors to the runner.
// Meant for SOCK_SEQPACKET or SOCK_DGRAM sockets, where one call is one message.
#pragma once

#include <string>

namespace gemm::sandbox {

// Sends `fd` with `payload` (at least one byte: the descriptor travels with data). False
// with errno set on failure.
bool send_fd(int socket, int fd, const std::string &payload);

// The descriptor of the next message (close-on-exec) and its payload; -1 when the message
// carried none, or on error or end of stream. Extra descriptors a hostile sender attached
// are closed, never leaked.
int receive_fd(int socket, std::string &payload);

} // namespace gemm::sandbox
