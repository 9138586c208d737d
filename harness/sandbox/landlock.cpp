#include "sandbox/landlock.hpp"
#include "sandbox/linux_abi.hpp"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gemm::sandbox {

namespace {

using namespace abi;

// Every file-system right the kernel of `abi` knows: each one handled is refused unless
// a rule grants it, so a right the kernel added is never left open by omission.
std::uint64_t fs_rights(int abi) {
    std::uint64_t rights = (fs_make_sym << 1) - 1; // ABI 1: execute … make_sym
    if (abi >= 2) rights |= fs_refer;
    if (abi >= 3) rights |= fs_truncate;
    if (abi >= 5) rights |= fs_ioctl_dev;
    return rights;
}

// The rights that mean something on a file rather than a folder: a rule on a file with any
// other is refused by the kernel.
constexpr std::uint64_t file_rights = fs_execute | fs_write_file | fs_read_file | fs_truncate | fs_ioctl_dev;

constexpr std::uint64_t read_rights = fs_execute | fs_read_file | fs_read_dir;
constexpr std::uint64_t device_rights = fs_read_file | fs_write_file | fs_truncate | fs_ioctl_dev | fs_read_dir;

// Adds a rule granting `rights` beneath `path`; a path that does not exist is skipped (a
// system without /lib64, a machine without /dev/nvidia-uvm).
void add_rule(int ruleset, const std::string &path, std::uint64_t rights, std::uint64_t handled,
              std::vector<std::string> &unconfined) {
    const int fd = open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) {
        if (errno != ENOENT && errno != ENOTDIR)
            unconfined.push_back("Landlock: " + path + " left out: " + std::strerror(errno));
        return;
    }
    struct stat s {};
    fstat(fd, &s);
    LandlockPathBeneathAttr rule{rights & handled & (S_ISDIR(s.st_mode) ? ~0ull : file_rights), fd};
    if (rule.allowed_access != 0 && syscall(__NR_landlock_add_rule, ruleset, rule_path_beneath, &rule, 0) != 0)
        unconfined.push_back("Landlock: " + path + " left out: " + std::strerror(errno));
    close(fd);
}

} // namespace

int landlock_abi() {
    const long version = syscall(__NR_landlock_create_ruleset, nullptr, 0, create_ruleset_version);
    return version < 0 ? 0 : static_cast<int>(version);
}

LandlockRuleset::LandlockRuleset(const Policy &policy, std::vector<std::string> &unconfined) : abi_(landlock_abi()) {
    if (abi_ == 0) {
        unconfined.push_back("no Landlock: kernel ABI 0, so files are not confined (only seccomp and the user)");
        return;
    }
    LandlockRulesetAttr attr;
    attr.handled_access_fs = fs_rights(abi_);
    if (abi_ >= 4 && !policy.allow_network) attr.handled_access_net = net_bind_tcp | net_connect_tcp;
    if (abi_ >= 6) attr.scoped = scope_abstract_unix_socket | scope_signal;
    if (abi_ < 4 && !policy.allow_network)
        unconfined.push_back("Landlock ABI " + std::to_string(abi_) +
                             " has no network rules (needs 4): sockets are stopped by seccomp only");
    if (abi_ < 5)
        unconfined.push_back("Landlock ABI " + std::to_string(abi_) +
                             " cannot restrict ioctl on devices (needs 5): any device opened may be used");
    if (abi_ < 6)
        unconfined.push_back("Landlock ABI " + std::to_string(abi_) +
                             " cannot scope signals (needs 6): signals are stopped by seccomp only");
    fd_ = static_cast<int>(syscall(__NR_landlock_create_ruleset, &attr, ruleset_attr_size(abi_), 0));
    if (fd_ < 0) {
        unconfined.push_back(std::string("no Landlock: the kernel refused the ruleset: ") + std::strerror(errno));
        return;
    }
    fcntl(fd_, F_SETFD, FD_CLOEXEC);
    const std::uint64_t handled = attr.handled_access_fs;
    for (const auto &path : policy.readable) add_rule(fd_, path, read_rights, handled, unconfined);
    for (const auto &path : policy.writable) add_rule(fd_, path, ~0ull, handled, unconfined);
    for (const auto &path : policy.devices) add_rule(fd_, path, device_rights, handled, unconfined);
}

LandlockRuleset::~LandlockRuleset() {
    if (fd_ >= 0) close(fd_);
}

bool LandlockRuleset::enforce() const noexcept {
    if (fd_ < 0) return false;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    const std::uint32_t flags = binds_all_threads() ? restrict_self_tsync : 0;
    return syscall(__NR_landlock_restrict_self, fd_, flags) == 0;
}

} // namespace gemm::sandbox
