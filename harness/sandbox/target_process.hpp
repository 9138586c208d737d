// What the judge reads about a confined process that is stopped in a system call: the
// strings and structures its arguments point to (process_vm_readv, else /proc/<pid>/mem),
// its process group, folders and descriptors (/proc). Every answer may be stale by the time
// it is used; the monitor uses them to name, never to allow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>

namespace gemm::sandbox {

// The NUL-terminated string at `address` in thread `tid`, at most PATH_MAX bytes.
std::optional<std::string> read_string(pid_t tid, std::uint64_t address);

// `size` bytes at `address` into `out`; false when they cannot all be read.
bool read_memory(pid_t tid, std::uint64_t address, void *out, std::size_t size);

std::optional<pid_t> process_group_of(pid_t pid);
std::optional<pid_t> thread_group_of(pid_t tid);

// The process a pidfd of thread `tid` refers to (/proc/<tid>/fdinfo/<fd>, "Pid:").
std::optional<pid_t> pidfd_target(pid_t tid, int fd);

// A path as the process `tid` would resolve it: relative to its working folder, or to its
// descriptor `dirfd` (AT_FDCWD for the working folder), with /proc/self and
// /proc/thread-self meaning the process's own and symbolic links followed (the last
// component too unless `follow_last` is false). nullopt when it is not a path of the file
// system (a pipe, a socket) or cannot be worked out.
std::optional<std::string> resolve_path(pid_t tid, int dirfd, const std::string &path, bool follow_last = true);

} // namespace gemm::sandbox
