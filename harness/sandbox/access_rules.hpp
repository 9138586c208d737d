// The Policy as Landlock applies it, asked by the judge: may the confined process read this
// path, write it, create or remove entries in this folder? Used to name a refused attempt
// (the kernel, not this, is what refuses it), so it follows Landlock's rules: rights hold
// beneath a rule's path, and the paths are compared once symbolic links are resolved.
#pragma once

#include "sandbox/policy.hpp"

#include <string>
#include <vector>

namespace gemm::sandbox {

class AccessRules {
  public:
    explicit AccessRules(const Policy &policy);

    bool may_read(const std::string &path) const;  // readable, writable or a device
    bool may_write(const std::string &path) const; // writable or a device
    // Create, remove or rename entries of `folder`: only beneath a writable folder.
    bool may_change_entries_of(const std::string &folder) const;

  private:
    std::vector<std::string> readable_, writable_, devices_;
};

// `path` is `root` or lies beneath it (both absolute and normalised).
bool is_beneath(const std::string &path, const std::string &root);

} // namespace gemm::sandbox
