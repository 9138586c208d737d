#include "measurement/gpu_sharing.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace gemm {

std::optional<ProcessStat> process_stat(pid_t pid) {
    // "PID (comm) state ppid pgrp ..."; comm may hold spaces and parentheses, so it ends at
    // the last ')'.
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(in, text)) return std::nullopt;
    const auto open = text.find('('), close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
    std::istringstream rest(text.substr(close + 1));
    std::string state;
    long parent = 0, group = 0;
    if (!(rest >> state >> parent >> group)) return std::nullopt;
    return ProcessStat{static_cast<pid_t>(parent), static_cast<pid_t>(group), text.substr(open + 1, close - open - 1)};
}

GpuSharing classify_gpu_processes(const std::vector<pid_t> &listed, pid_t own, const std::vector<pid_t> &groups,
                                  const ProcessLookup &lookup) {
    GpuSharing sharing;
    for (pid_t pid : listed) {
        if (pid == own) {
            sharing.judge_seen = true;
            continue;
        }
        const auto found = lookup(pid);
        if (!found) continue; // gone since, or not of this namespace: nothing to name
        if (std::find(groups.begin(), groups.end(), found->group) != groups.end()) {
            sharing.judge_seen = true;
            continue;
        }
        sharing.others.push_back({pid, found->name});
    }
    return sharing;
}

std::string describe_processes(const std::vector<GpuProcess> &processes) {
    std::string text;
    for (const auto &p : processes)
        text += (text.empty() ? "" : ", ") + std::string("PID ") + std::to_string(p.pid) +
                (p.name.empty() ? "" : " (" + p.name + ")");
    return text;
}

} // namespace gemm
