#include "sandbox/policy.hpp"

#include <sys/stat.h>

namespace gemm::sandbox {

namespace {

bool exists(const std::string &path) {
    struct stat s {};
    return stat(path.c_str(), &s) == 0;
}

std::vector<std::string> present(std::vector<std::string> paths) {
    std::vector<std::string> kept;
    for (auto &p : paths)
        if (exists(p)) kept.push_back(std::move(p));
    return kept;
}

} // namespace

std::vector<std::string> system_folders() { return present({"/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc"}); }

std::vector<std::string> proc_entries_for(pid_t pid) {
    return present({"/proc/" + std::to_string(pid), "/proc/meminfo", "/proc/cpuinfo", "/proc/stat", "/proc/sys/vm",
                    "/proc/driver/nvidia"});
}

} // namespace gemm::sandbox
