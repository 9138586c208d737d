// Who a process runs as: the switch from root to an unprivileged user, and the judge's own
// protection from being read (non-dumpable).
#pragma once

#include <sys/types.h>

namespace gemm::sandbox {

// Becomes uid:gid with no supplementary groups, irreversibly (real, effective and saved
// ids). glibc's wrappers change every thread of the process. False with errno set.
bool switch_user(uid_t uid, gid_t gid) noexcept;

// The judge's processes call it first thing: a process that is not dumpable has its
// /proc/<pid>/mem, environ and fd owned by root and refuses ptrace from its own user, so a
// solution running as that user (no Landlock, no seccomp) still cannot read the judge.
void make_undumpable();

} // namespace gemm::sandbox
