// expect: RE
// cases: secret/04-primes
// detail: tried to leave its process group (setsid, blocked)
// Starts a child that leaves the process group (setsid) and would then burn the CPU for two
// seconds. The judge stops the solution's whole group (SIGSTOP) between its calls, and the
// baseline runner, which measures what a call costs beyond its own work, runs on the same
// CPU: a process outside the group would run on while the solution is stopped, slow the
// baseline's calls, and so make the cost taken off the solution's times larger. Then it
// computes C correctly.
// Why the judge must hold: seccomp asks the judge about setsid and setpgid, which refuses
// any that leaves the group and names it ("tried to leave its process group (setsid,
// blocked)"); the case is RE.
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <chrono>
#include <sys/wait.h>

namespace {

void try_leaving_the_group() {
    std::fflush(stderr);
    const pid_t child = ::fork();
    if (child != 0) return; // the parent goes on; a child refused exits at once
    if (::setsid() < 0) _exit(0);
    std::fprintf(stderr, "hostile: SANDBOX FAILURE: a child left the process group\n");
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < end) {
    }
    _exit(0);
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tried = (try_leaving_the_group(), true);
    (void)tried;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
