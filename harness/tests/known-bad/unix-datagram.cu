// expect: RE
// cases: secret/04-primes
// detail: tried to open a Unix datagram socket (blocked)
// Sends a datagram to a Unix socket at a path: the system log's (/dev/log) and one in the
// decoys' folder. sendto names the address itself, so no connect() is made, and Landlock
// does not cover a socket's path: a datagram socket reaches whatever datagram socket of the
// user's it can name (a notify socket, a logger that runs what it is sent). Then it
// computes C correctly.
// Why the judge must hold: seccomp asks the judge about socket(AF_UNIX, SOCK_DGRAM), which
// refuses it and names it ("tried to open a Unix datagram socket (blocked)"); the case is RE.
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <sys/socket.h>
#include <sys/un.h>

namespace {

void try_datagram(const std::string &path) {
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        std::fprintf(stderr, "hostile: socket(AF_UNIX, SOCK_DGRAM): %s\n", std::strerror(errno));
        return;
    }
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    const ssize_t sent = ::sendto(fd, "hostile", 7, 0, reinterpret_cast<const sockaddr *>(&address), sizeof address);
    std::fprintf(stderr, "hostile: SANDBOX FAILURE: opened a Unix datagram socket (sendto %s: %s)\n", path.c_str(),
                 sent == 7 ? "sent" : std::strerror(errno));
    ::close(fd);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tried =
        (try_datagram("/dev/log"), try_datagram(std::string(hostile::decoy_folder) + "/log"), true);
    (void)tried;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
