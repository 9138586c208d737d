// Whose fault it is when the referee cannot get the GPU memory a case needs. The solution's
// process can take device memory (in a constructor, or in solve() without freeing it), and
// the referee allocates per case after that process exists, so an allocation that fails is
// not by itself the judge's failure (JE). The referee asks NVML which processes hold how
// much (referee/device_info.hpp) and this rule decides from that: memory the solution's
// process group holds, without which the case would fit, is the solution's doing (RE, named
// with the figures); memory another program outside the judge holds is the judge's failure
// to judge here (JE, naming it, as measurement/gpu_sharing.hpp does for a busy GPU); the rest JE.
#pragma once

#include "common/product_layout.hpp"
#include "measurement/gpu_sharing.hpp"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace gemm {

// GPU memory a case needs at its peak, the checked call (referee/case_referee.cpp): A, B and
// C twice in the problem's element size (the solution's and the referee's pristine copy or
// snapshot), an epilogue's operands twice, C₀, the checks' float copies where the layout is not
// plain FP32, the FP64 reference and its magnitudes, and one FP64 copy of A and of B.
double gpu_bytes_needed(int M, int N, int K, const ProductLayout &layout = {});

// One process with a context on the GPU, as NVML lists it.
struct GpuMemoryHolder {
    pid_t pid = 0;
    std::optional<double> bytes; // nullopt: NVML cannot say (a container, an old driver)
};

struct MemoryBlame {
    bool solution_at_fault = false;
    std::string why; // in words, with the figures
};

// `needed`: the case's bytes; `free_bytes`: what the device has free now; `holders`: NVML's
// list; `own`: the referee's PID; `solution_group`: the solution runner's process group;
// `judge_groups`: the judge's other processes' groups (the baseline runner's).
MemoryBlame blame_out_of_memory(double needed, double free_bytes, const std::vector<GpuMemoryHolder> &holders,
                                pid_t own, pid_t solution_group, const std::vector<pid_t> &judge_groups,
                                const ProcessLookup &lookup = process_stat);

// "131 GB", "0.3 GB": decimal gigabytes, as nvidia-smi and the datasheets count them.
std::string gigabytes(double bytes);

} // namespace gemm
