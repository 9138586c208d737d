#include "sandbox/resource_limits.hpp"

namespace gemm::sandbox {

ResourceLimits::ResourceLimits(const Limits &limits) {
    entries_[count_++] = {RLIMIT_CORE, "RLIMIT_CORE", 0};
    auto add = [this](int resource, const char *name, const std::optional<rlim_t> &value) {
        if (value) entries_[count_++] = {resource, name, *value};
    };
    add(RLIMIT_FSIZE, "RLIMIT_FSIZE", limits.file_size_bytes);
    add(RLIMIT_NOFILE, "RLIMIT_NOFILE", limits.open_files);
    add(RLIMIT_NPROC, "RLIMIT_NPROC", limits.processes);
    add(RLIMIT_AS, "RLIMIT_AS", limits.address_space_bytes);
    add(RLIMIT_CPU, "RLIMIT_CPU", limits.cpu_seconds);
}

bool ResourceLimits::apply(const char **failed) const noexcept {
    bool all = true;
    for (int i = 0; i < count_; ++i) {
        rlimit current{};
        getrlimit(entries_[i].resource, &current);
        // Never above the inherited hard limit: raising it needs privileges and means nothing.
        const rlim_t value = current.rlim_max < entries_[i].value ? current.rlim_max : entries_[i].value;
        const rlimit wanted{value, value};
        if (setrlimit(entries_[i].resource, &wanted) != 0) {
            if (failed && all) *failed = entries_[i].name;
            all = false;
        }
    }
    return all;
}

} // namespace gemm::sandbox
