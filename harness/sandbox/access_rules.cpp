#include "sandbox/access_rules.hpp"

#include <algorithm>
#include <filesystem>

namespace gemm::sandbox {

namespace {

// Landlock puts a rule on the inode its path names: /lib64 → usr/lib64 means /usr/lib64.
std::vector<std::string> resolved(const std::vector<std::string> &paths) {
    std::vector<std::string> out;
    for (const auto &p : paths) {
        std::error_code ec;
        const auto canonical = std::filesystem::canonical(p, ec);
        if (!ec) out.push_back(canonical.string());
    }
    return out;
}

bool beneath_any(const std::string &path, const std::vector<std::string> &roots) {
    return std::any_of(roots.begin(), roots.end(), [&](const std::string &root) { return is_beneath(path, root); });
}

} // namespace

bool is_beneath(const std::string &path, const std::string &root) {
    if (root == "/") return true;
    return path.compare(0, root.size(), root) == 0 && (path.size() == root.size() || path[root.size()] == '/');
}

AccessRules::AccessRules(const Policy &policy)
    : readable_(resolved(policy.readable)), writable_(resolved(policy.writable)), devices_(resolved(policy.devices)) {}

bool AccessRules::may_read(const std::string &path) const {
    return beneath_any(path, readable_) || beneath_any(path, writable_) || beneath_any(path, devices_);
}

bool AccessRules::may_write(const std::string &path) const {
    return beneath_any(path, writable_) || beneath_any(path, devices_);
}

bool AccessRules::may_change_entries_of(const std::string &folder) const { return beneath_any(folder, writable_); }

} // namespace gemm::sandbox
