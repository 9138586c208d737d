// The Policy of the fake confined runner (fake_confined_runner.cpp), shared with the test that
// watches it (test_sandbox.cpp): both sides must judge by the same rules.
#pragma once

#include "sandbox/policy.hpp"

#include <string>
#include <sys/types.h>

namespace gemm::test {

inline sandbox::Policy confined_runner_policy(const std::string &scratch, pid_t runner) {
    sandbox::Policy policy;
    policy.readable = sandbox::system_folders();
    for (const auto &entry : sandbox::proc_entries_for(runner)) policy.readable.push_back(entry);
    policy.writable = {scratch};
    policy.devices = {"/dev/null"};
    policy.run_as_uid = sandbox::nobody_uid; // when the tests run as root (CI)
    policy.run_as_gid = sandbox::nogroup_gid;
    return policy;
}

} // namespace gemm::test
