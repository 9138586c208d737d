#include "sandbox/identity.hpp"

#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace gemm::sandbox {

bool switch_user(uid_t uid, gid_t gid) noexcept {
    // A change of credentials clears the signal the process gets when its parent dies
    // (prctl(2)): without it again, a runner whose judge was killed with SIGKILL would run on,
    // its solution holding the GPU. Set again after the change, and the parent checked to be
    // the same (it may have died in between).
    int death_signal = 0;
    prctl(PR_GET_PDEATHSIG, &death_signal, 0, 0, 0);
    const pid_t parent = getppid();
    if (setgroups(0, nullptr) != 0) return false;
    if (setresgid(gid, gid, gid) != 0) return false;
    if (setresuid(uid, uid, uid) != 0) return false;
    // The uid change made the process non-dumpable, which hands its /proc/<pid> to root and
    // would hide /proc/self/fd and the like from itself. It holds nothing to protect.
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    if (death_signal != 0) {
        prctl(PR_SET_PDEATHSIG, death_signal, 0, 0, 0);
        if (getppid() != parent) _exit(1);
    }
    return getuid() == uid && geteuid() == uid;
}

void make_undumpable() { prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

} // namespace gemm::sandbox
