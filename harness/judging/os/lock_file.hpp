// Lock files shared by every judge on the machine, whoever runs it (the CPUs the timed
// processes are pinned to, the turn on the GPU): flock on a file in /tmp, released when the
// holder exits however it ends, so a killed judge never leaves a stale lock behind.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>

namespace gemm {

// Opened for reading where it exists (a sticky /tmp refuses to open another user's file
// for writing, and flock needs no more), created readable by all where it does not.
// -1 with errno set when it can be neither.
int open_shared_lock_file(const std::string &path);

// The process that holds an flock on the file open as `fd`, from /proc/locks (its PID as
// this process's namespace sees it); nullopt when none does or the kernel does not say.
std::optional<pid_t> flock_holder(int fd);

} // namespace gemm
