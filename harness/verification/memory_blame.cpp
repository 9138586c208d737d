#include "verification/memory_blame.hpp"

#include <algorithm>
#include <cstdio>

namespace gemm {

double gpu_bytes_needed(int M, int N, int K, const ProductLayout &layout) {
    // As referee/case_referee.cpp allocates: each stored operand twice (the arena's and the
    // referee's pristine copy; C's second is the snapshot the checks read) in the problem's own
    // element size, C₀ once more where C is read, the checks' float copies where the layout
    // differs (transposed, diagonal, FP16 or int8 widened), and the FP64 reference with its
    // magnitudes and widened operands.
    const double a = double(layout.batch) * M * N, b = double(layout.batch) * N * K, c = double(layout.batch) * M * K;
    const double a_el = double(layout.a_elements(M, N)), b_el = double(layout.b_elements(N, K)),
                 c_el = double(layout.c_elements(M, K));
    const auto stored = [&](double elements) { return 4.0 * double(layout.words(std::size_t(elements))); };
    const bool widened = layout.element_bytes != 4;
    double bytes = 2 * (stored(a_el) + stored(b_el) + stored(c_el));
    bytes += 2 * 4.0 * double(layout.bias_elements(K) + layout.factor_elements(M, K));
    if (layout.c_read) bytes += stored(c_el) + (layout.element_bytes == 2 ? 4 * c_el : 0);
    if (widened) bytes += 4 * (a_el + b_el + c_el);
    bytes += 4 * ((layout.a_transposed || layout.a_diagonal ? a : 0) + (layout.b_transposed ? b : 0));
    return bytes + 8 * (a + b + 2 * c);
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
