// expect: RE
// cases: secret/04-primes
// detail: network socket (blocked)
// Tries to reach the network: an AF_INET TCP socket connected to 127.0.0.1:22 (ssh on
// the judging machine), and an AF_INET6 UDP socket. A solution that can talk to the
// network can send out the testcases it sees, fetch an answer, or reach a service on
// the judging host. Then it computes C correctly.
// Why the judge must hold: seccomp refuses socket() for AF_INET and AF_INET6 (the
// runner keeps its unix socket to the referee, opened before it was confined); the judge
// names the attempt ("tried to open a network socket (blocked)") and the case is RE.
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

namespace {

void try_ssh_on_localhost() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        std::fprintf(stderr, "hostile: socket(AF_INET): %s\n", std::strerror(errno));
        return;
    }
    sockaddr_in ssh{};
    ssh.sin_family = AF_INET;
    ssh.sin_port = htons(22);
    ssh.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int rc = ::connect(fd, reinterpret_cast<const sockaddr *>(&ssh), sizeof ssh);
    pollfd wait{fd, POLLOUT, 0};
    if (rc != 0 && errno == EINPROGRESS) ::poll(&wait, 1, 200);
    std::fprintf(stderr, "hostile: SANDBOX FAILURE: opened an AF_INET socket (connect: %s)\n",
                 rc == 0 ? "done" : std::strerror(errno));
    ::close(fd);
}

void try_inet6() {
    const int fd = ::socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        std::fprintf(stderr, "hostile: socket(AF_INET6): %s\n", std::strerror(errno));
        return;
    }
    std::fprintf(stderr, "hostile: SANDBOX FAILURE: opened an AF_INET6 socket\n");
    ::close(fd);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tried = (try_ssh_on_localhost(), try_inet6(), true);
    (void)tried;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
