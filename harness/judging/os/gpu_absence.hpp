// Why no GPU can run the cases, said plainly and from the facts the judge can see: CUDA's own
// words for a machine without an NVIDIA driver ("CUDA driver version is insufficient for
// CUDA runtime version") read as a version problem, when the driver is simply not there, so
// they are quoted only when the judge has no diagnosis of its own.
#pragma once

#include <string>

namespace gemm {

// Where the judge looks; a test points them elsewhere.
struct GpuSystemFiles {
    std::string driver_version = "/proc/driver/nvidia/version"; // exists while the driver is loaded
    std::string device_node = "/dev/nvidia0";                   // the first GPU, as a container sees it
};

struct MissingGpu {
    std::string what;   // "no NVIDIA driver is loaded (there is no /proc/driver/nvidia/version)"
    std::string remedy; // a sentence saying what to do

    // Both as one line without a final full stop, for the reports (--json's summary.no_gpu,
    // --junit's error message, which goes on "; nothing was run").
    std::string sentence() const { return what + ". " + remedy.substr(0, remedy.find_last_not_of('.') + 1); }
};

// `cuda_error` is what the CUDA runtime said; `visible_devices` is CUDA_VISIBLE_DEVICES
// (nullptr when unset).
MissingGpu explain_missing_gpu(const std::string &cuda_error, const char *visible_devices,
                               const GpuSystemFiles &files = {});

// The two lines for the terminal, each at most 100 columns and escaped:
// "judge: no GPU: <what>." and the remedy.
std::string missing_gpu_lines(const MissingGpu &why);

// Prints missing_gpu_lines on stderr once per process: compare's two sides each find the
// GPU missing, and the machine is one.
void tell_missing_gpu(const MissingGpu &why);

} // namespace gemm
