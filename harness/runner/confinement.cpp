#include "runner/confinement.hpp"
#include "channel/socket_channel.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// Every device node the CUDA driver opens: /dev/nvidia0…, nvidiactl, nvidia-uvm, the
// capability nodes; a node this machine lacks is simply not added.
std::vector<std::string> nvidia_devices() {
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
    const std::string own_proc = "/proc/" + std::to_string(pid);
    // The system, the toolkit and the driver (under /usr, /opt or /lib), the kernel's
    // view of the GPU (/sys) and of itself; never the user's files, other processes or
    // testcases.
    p.readable = {"/usr",          "/lib",         "/lib64",         "/lib32",          "/bin",
                  "/sbin",         "/etc",         "/opt",           "/sys",            own_proc,
                  "/proc/meminfo", "/proc/cpuinfo", "/proc/stat",    "/proc/driver/nvidia",
                  "/proc/sys/vm",  "/proc/sys/kernel", "/proc/devices", "/proc/filesystems"};
    // Its folder, and its own /proc entries (the driver names its threads there).
    p.writable = {scratch, own_proc};
    if (!relaxed.empty()) {
        // compute-sanitizer and ncu talk to their front end through files here.
        p.writable.push_back(fs::temp_directory_path().string());
        p.writable.push_back("/tmp");
        p.writable.push_back("/dev/shm");
    }
    p.devices = nvidia_devices();
    if (geteuid() == 0) {
        p.run_as_uid = unprivileged_runner_uid;
        p.run_as_gid = unprivileged_runner_gid;
    }
    return p;
}

bool confine_runner(int monitor_fd, const std::string &relaxed) {
    std::error_code ec;
    const std::string scratch = fs::current_path(ec).string();
    sandbox::Outcome outcome = sandbox::confine_self(runner_policy(scratch, getpid(), relaxed));
    if (!relaxed.empty()) outcome.unconfined.push_back("writes to /tmp and /dev/shm allowed for " + relaxed);
    const nlohmann::json report{{"unconfined", outcome.unconfined}};
    const bool sent = send_descriptor(monitor_fd, outcome.listener_fd, report.dump());
    if (outcome.listener_fd >= 0) close(outcome.listener_fd);
    close(monitor_fd);
    return sent;
}

} // namespace gemm
