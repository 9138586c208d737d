#include "verification/memory_blame.hpp"

#include <algorithm>
#include <cstdio>

namespace gemm {

double gpu_bytes_needed(int M, int N, int K, const ProductLayout &layout) {
    // Stored (the arena's and the referee's pristine copy), the checks' canonical copies where
    // the layout differs, and the FP64 reference with its widened operands.
    const double a = double(layout.batch) * M * N, b = double(layout.batch) * N * K, c = double(layout.batch) * M * K;
    const double a_stored = double(layout.a_elements(M, N)), b_stored = double(layout.b_elements(N, K));
    const double canonical = (layout.a_transposed || layout.a_diagonal ? a : 0) + (layout.b_transposed ? b : 0);
    return 4 * (2 * a_stored + 2 * b_stored + 2 * c + canonical) + 8 * (a + b + 2 * c);
}

std::string gigabytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, bytes >= 10e9 ? "%.0f GB" : "%.1f GB", bytes / 1e9);
    return text;
}

MemoryBlame blame_out_of_memory(double needed, double free_bytes, const std::vector<GpuMemoryHolder> &holders,
                                pid_t own, pid_t solution_group, const std::vector<pid_t> &judge_groups,
                                const ProcessLookup &lookup) {
    double solution_bytes = 0, other_bytes = 0;
    bool solution_known = false;
    std::vector<GpuProcess> others;
    for (const auto &holder : holders) {
        if (holder.pid == own) continue;
        const auto stat = lookup(holder.pid);
        if (stat && solution_group > 0 && stat->group == solution_group) {
            if (holder.bytes) {
                solution_bytes += *holder.bytes;
                solution_known = true;
            }
            continue;
        }
        if (!stat || !holder.bytes) continue; // not a process here, or NVML cannot say
        // The judge's own processes (the baseline runner) hold only their context.
        if (std::find(judge_groups.begin(), judge_groups.end(), stat->group) != judge_groups.end()) continue;
        other_bytes += *holder.bytes;
        others.push_back({holder.pid, stat->name});
    }
    const std::string figures = "; the case needs " + gigabytes(needed) + " and " + gigabytes(free_bytes) + " is free";
    if (solution_known && needed <= free_bytes + solution_bytes)
        return {true, "the solution's process holds " + gigabytes(solution_bytes) +
                          " of GPU memory, so the judge could not allocate the case's inputs and reference" + figures};
    if (!others.empty() && needed <= free_bytes + solution_bytes + other_bytes)
        return {false, describe_processes(others) + " outside the judge hold" + (others.size() == 1 ? "s " : " ") +
                           gigabytes(other_bytes) + " of GPU memory" + figures + ": judge again when the GPU is free"};
    return {false, "the GPU is out of memory" + figures +
                       (solution_known ? " (the solution's process holds " + gigabytes(solution_bytes) + ")"
                                       : " (NVML cannot say which process holds it)")};
}

} // namespace gemm
