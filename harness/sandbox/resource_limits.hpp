// Resource limits of a confined process (setrlimit): the Policy's Limits as a fixed list,
// prepared in advance so that a forked child applies them with system calls alone.
#pragma once

#include "sandbox/policy.hpp"

#include <string>
#include <sys/resource.h>
#include <vector>

namespace gemm::sandbox {

class ResourceLimits {
  public:
    explicit ResourceLimits(const Limits &limits);

    // Lowers each limit (soft and hard, so the process cannot raise it again). Names in
    // `failed` the limits that were refused; the others are still set.
    bool apply(const char **failed = nullptr) const noexcept;

  private:
    struct Entry {
        int resource;
        const char *name;
        rlim_t value;
    };
    Entry entries_[6];
    int count_ = 0;
};

} // namespace gemm::sandbox
