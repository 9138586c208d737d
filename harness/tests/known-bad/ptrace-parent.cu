// expect: RE
// cases: secret/04-primes
// detail: (blocked)
// Tries to take control of its parent: PTRACE_ATTACH and PTRACE_SEIZE on it (and on the
// grandparent if it can name it). A tracer may read and write the tracee's memory and
// registers: the judge's verdicts, the referee's reference and clock. Should an attach
// succeed, it detaches at once and says so. Then it computes C correctly.
// Why the judge must hold: seccomp refuses ptrace (and the runner, an unprivileged uid
// with no new privileges, fails the kernel's ptrace access check on processes of
// another user anyway); the judge names the attempt ("tried to ptrace process N
// (blocked)") and the case is RE.
#include "hostile.cuh"
#include "naive_kernel.cuh"

#include <sys/ptrace.h>
#include <sys/wait.h>

namespace {

void try_to_trace(pid_t pid) {
    for (const auto request : {PTRACE_ATTACH, PTRACE_SEIZE}) {
        if (::ptrace(request, pid, nullptr, nullptr) != 0) {
            std::fprintf(stderr, "hostile: ptrace(%s, %d): %s\n", request == PTRACE_ATTACH ? "ATTACH" : "SEIZE", pid,
                         std::strerror(errno));
            continue;
        }
        // A tracee leaves only from a ptrace-stop: a seized one is stopped first.
        if (request == PTRACE_SEIZE) ::ptrace(PTRACE_INTERRUPT, pid, nullptr, nullptr);
        ::waitpid(pid, nullptr, __WALL);
        ::ptrace(PTRACE_DETACH, pid, nullptr, nullptr);
        std::fprintf(stderr, "hostile: SANDBOX FAILURE: traced process %d (detached again)\n", pid);
    }
}

} // namespace

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static const bool tried = [] {
        for (const auto &pid : hostile::ancestors()) try_to_trace(static_cast<pid_t>(std::stol(pid)));
        return true;
    }();
    (void)tried;
    launch_naive(A, B, C, M, N, K);
    cudaDeviceSynchronize();
}
