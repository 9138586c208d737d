#include "sandbox/identity.hpp"

#include <grp.h>
#include <sys/prctl.h>
#include <unistd.h>

namespace gemm::sandbox {

bool switch_user(uid_t uid, gid_t gid) noexcept {
    if (setgroups(0, nullptr) != 0) return false;
    if (setresgid(gid, gid, gid) != 0) return false;
    if (setresuid(uid, uid, uid) != 0) return false;
    // The uid change made the process non-dumpable, which hands its /proc/<pid> to root and
    // would hide /proc/self/fd and the like from itself. It holds nothing to protect.
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    return getuid() == uid && geteuid() == uid;
}

void make_undumpable() { prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

} // namespace gemm::sandbox
