// Landlock, the kernel's unprivileged file-system (and, from ABI 4, TCP; from ABI 6, signal
// and abstract-socket) sandbox: a ruleset built from a Policy with every right the running
// kernel knows handled, then enforced on the process. Built in one step and enforced in
// another, so a forked child can enforce it with system calls alone.
#pragma once

#include "sandbox/policy.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gemm::sandbox {

// The kernel's Landlock ABI version; 0 when it has none (not built in, or off at boot).
int landlock_abi();

class LandlockRuleset {
  public:
    // Every right of the kernel's ABI is handled and only the Policy's are granted. What the
    // kernel cannot enforce is added to `unconfined` in the user's words.
    LandlockRuleset(const Policy &policy, std::vector<std::string> &unconfined);
    ~LandlockRuleset();
    LandlockRuleset(const LandlockRuleset &) = delete;
    LandlockRuleset &operator=(const LandlockRuleset &) = delete;

    bool ready() const { return fd_ >= 0; }
    int abi() const { return abi_; }
    // ABI 8 binds every thread of the process at once; before it, only the calling thread
    // (and the threads and children it starts afterwards).
    bool binds_all_threads() const { return abi_ >= 8; }

    // Sets no_new_privs (Landlock's condition for an unprivileged process) and restricts the
    // process; system calls only, for a forked child. False with errno set when refused.
    bool enforce() const noexcept;

  private:
    int abi_ = 0;
    int fd_ = -1;
};

} // namespace gemm::sandbox
