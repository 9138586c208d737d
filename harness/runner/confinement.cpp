#include "runner/confinement.hpp"
#include "sandbox/fd_passing.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/socket.h>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// Every device node the CUDA driver opens: /dev/nvidia0…, nvidiactl, nvidia-uvm, the
// capability nodes; a node this machine lacks is simply not there to add.
std::vector<std::string> gpu_devices() {
    std::vector<std::string> nodes;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator("/dev", ec))
        if (entry.path().filename().string().rfind("nvidia", 0) == 0) nodes.push_back(entry.path().string());
    for (const char *node : {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"})
        nodes.push_back(node);
    return nodes;
}

} // namespace

sandbox::Policy runner_policy(const std::string &scratch, pid_t pid, const std::string &relaxed) {
    sandbox::Policy p;
    // The system, the toolkit and the driver (under /usr, /opt or /lib), the kernel's view
    // of the GPU (/sys) and of the runner itself; never the user's files, other processes
    // or testcases.
    p.readable = sandbox::system_folders();
    for (const auto &entry : sandbox::proc_entries_for(pid)) p.readable.push_back(entry);
    for (const char *more : {"/opt", "/sys", "/proc/sys/kernel", "/proc/devices", "/proc/filesystems"})
        if (fs::exists(more)) p.readable.push_back(more);
    // Its folder, and its own /proc entries (the driver names its threads there).
    p.writable = {scratch, "/proc/" + std::to_string(pid)};
    if (!relaxed.empty()) {
        for (const char *shared : {"/tmp", "/dev/shm"}) // where compute-sanitizer and ncu meet their front ends
            if (fs::exists(shared)) p.writable.push_back(shared);
        p.allow_unix_datagrams = true; // and whatever sockets their injected libraries use
    }
    p.devices = gpu_devices();
    p.run_as_uid = sandbox::nobody_uid;
    p.run_as_gid = sandbox::nogroup_gid;
    p.limits.processes = 512; // threads count: CUDA's own, and a solution's OpenMP
    return p;
}

RunnerConfinement::RunnerConfinement(const std::string &relaxed)
    : relaxed_(relaxed), policy_(runner_policy(fs::current_path().string(), getpid(), relaxed)),
      filesystem_(sandbox::restrict_filesystem(policy_)) {}

bool RunnerConfinement::finish(int monitor_fd) {
    sandbox::Outcome rest = sandbox::confine_self(policy_, monitor_fd);
    std::vector<std::string> unconfined = filesystem_.unconfined;
    unconfined.insert(unconfined.end(), rest.unconfined.begin(), rest.unconfined.end());
    if (!relaxed_.empty())
        unconfined.push_back("/tmp and /dev/shm writable and Unix datagram sockets allowed for " + relaxed_);
    const std::string report = nlohmann::json{{"unconfined", unconfined}}.dump();
    const bool told = send(monitor_fd, report.data(), report.size(), MSG_NOSIGNAL) == ssize_t(report.size());
    close(monitor_fd);
    return told;
}

} // namespace gemm
