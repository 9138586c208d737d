// The kernel interfaces the sandbox uses that Debian 12's headers predate: Landlock's
// system calls and every access right, scope and flag up to ABI 8, written out from the
// kernel's ABI (include/uapi/linux/landlock.h). Where the installed header knows a
// constant, it is checked against ours, so a typo cannot hide behind an old header.
#pragma once

#include <cstdint>
#include <sys/syscall.h>

#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#endif

#ifndef __NR_landlock_create_ruleset // the same numbers on every architecture (asm-generic, 5.13)
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif

namespace gemm::sandbox::abi {

// struct landlock_ruleset_attr as of ABI 6; a kernel of an older ABI takes the prefix it
// knows (the size passed says which).
struct LandlockRulesetAttr {
    std::uint64_t handled_access_fs = 0;
    std::uint64_t handled_access_net = 0; // ABI 4
    std::uint64_t scoped = 0;             // ABI 6
};
constexpr unsigned long ruleset_attr_size(int abi) { return abi >= 6 ? 24 : abi >= 4 ? 16 : 8; }

struct __attribute__((packed)) LandlockPathBeneathAttr {
    std::uint64_t allowed_access;
    std::int32_t parent_fd;
};

constexpr std::uint32_t create_ruleset_version = 1u << 0;
constexpr int rule_path_beneath = 1;

constexpr std::uint64_t fs_execute = 1ull << 0;
constexpr std::uint64_t fs_write_file = 1ull << 1;
constexpr std::uint64_t fs_read_file = 1ull << 2;
constexpr std::uint64_t fs_read_dir = 1ull << 3;
constexpr std::uint64_t fs_remove_dir = 1ull << 4;
constexpr std::uint64_t fs_remove_file = 1ull << 5;
constexpr std::uint64_t fs_make_char = 1ull << 6;
constexpr std::uint64_t fs_make_dir = 1ull << 7;
constexpr std::uint64_t fs_make_reg = 1ull << 8;
constexpr std::uint64_t fs_make_sock = 1ull << 9;
constexpr std::uint64_t fs_make_fifo = 1ull << 10;
constexpr std::uint64_t fs_make_block = 1ull << 11;
constexpr std::uint64_t fs_make_sym = 1ull << 12;
constexpr std::uint64_t fs_refer = 1ull << 13;     // ABI 2
constexpr std::uint64_t fs_truncate = 1ull << 14;  // ABI 3
constexpr std::uint64_t fs_ioctl_dev = 1ull << 15; // ABI 5

constexpr std::uint64_t net_bind_tcp = 1ull << 0; // ABI 4
constexpr std::uint64_t net_connect_tcp = 1ull << 1;

constexpr std::uint64_t scope_abstract_unix_socket = 1ull << 0; // ABI 6
constexpr std::uint64_t scope_signal = 1ull << 1;

constexpr std::uint32_t restrict_self_tsync = 1u << 3; // ABI 8: every thread of the process

#ifdef LANDLOCK_ACCESS_FS_REFER
static_assert(LANDLOCK_ACCESS_FS_REFER == fs_refer);
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
static_assert(LANDLOCK_ACCESS_FS_TRUNCATE == fs_truncate);
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
static_assert(LANDLOCK_ACCESS_FS_IOCTL_DEV == fs_ioctl_dev);
#endif
#ifdef LANDLOCK_ACCESS_NET_CONNECT_TCP
static_assert(LANDLOCK_ACCESS_NET_CONNECT_TCP == net_connect_tcp);
#endif
#ifdef LANDLOCK_SCOPE_SIGNAL
static_assert(LANDLOCK_SCOPE_SIGNAL == scope_signal);
static_assert(LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET == scope_abstract_unix_socket);
#endif
#ifdef LANDLOCK_RESTRICT_SELF_TSYNC
static_assert(LANDLOCK_RESTRICT_SELF_TSYNC == restrict_self_tsync);
#endif

} // namespace gemm::sandbox::abi
