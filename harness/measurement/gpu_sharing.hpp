// Who else runs on the GPU, when the empty call after a solution's calls says the GPU was
// kept busy (measurement/offset_rule.hpp). Without MPS every context on the GPU takes turns by time
// slices, so another process's kernels cost the judge's calls exactly what work the
// solution left running would. The solution cannot start a process outside its own
// process group (setsid/setpgid are refused), so a process on the GPU that belongs to
// neither the judge nor the solution's group is evidence the solution did not make: the
// case is then the judge's failure to judge (JE, naming the process), not the solution's RE.
// The rule is pure; the referee feeds it NVML's list (referee/device_info.hpp) and /proc.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gemm {

struct GpuProcess {
    pid_t pid = 0;
    std::string name;
};

struct GpuSharing {
    // The list holds the judge's own process: its PIDs are this PID namespace's, so a PID
    // in it that is nobody here is not a process the judge could miss (in a container NVML
    // may list the host's PIDs, and then nothing in the list can be told apart).
    bool judge_seen = false;
    std::vector<GpuProcess> others; // neither the judge's nor in the solution's process group
};

// What /proc/PID/stat says of a process: its parent, its process group, its command name.
struct ProcessStat {
    pid_t parent = 0, group = 0;
    std::string name;
};
// nullopt when there is no such process in this PID namespace.
std::optional<ProcessStat> process_stat(pid_t pid);
using ProcessLookup = std::function<std::optional<ProcessStat>(pid_t)>;

// `listed`: the PIDs with a context on the GPU; `own`: the referee's PID; `groups`: the
// process groups of the baseline runner and of the solution's runner (and so of all the
// solution started).
GpuSharing classify_gpu_processes(const std::vector<pid_t> &listed, pid_t own, const std::vector<pid_t> &groups,
                                  const ProcessLookup &lookup = process_stat);

// "PID 4242 (python3), PID 4250 (train)".
std::string describe_processes(const std::vector<GpuProcess> &processes);

} // namespace gemm
