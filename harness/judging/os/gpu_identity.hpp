// Which GPU a judge will use, named alike by every judge on the machine, so that judges on
// one GPU take turns and judges on two GPUs do not (judging/os/gpu_turn.hpp). CUDA picks
// the first device CUDA_VISIBLE_DEVICES names, by index or by UUID; the driver lists its
// GPUs, with their UUIDs, in /proc/driver/nvidia/gpus/<PCI bus id>/information. An index
// is trusted only where it surely means the driver's listing: CUDA numbers the devices
// fastest first unless CUDA_DEVICE_ORDER=PCI_BUS_ID, which is the listing's order only
// when every GPU is of one model.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gemm {

struct ListedGpu {
    std::string bus_id; // "0000:18:00.0"
    std::string uuid;   // "GPU-1a2b…"
    std::string model;  // "NVIDIA H200"
};

// The GPUs the driver lists, in PCI bus order; none where the driver says nothing (no
// NVIDIA driver, a container without /proc/driver/nvidia). GEMM_JUDGE_NVIDIA_GPUS_DIR
// names another folder of the same layout (the CPU tests).
std::vector<ListedGpu> listed_gpus();
std::vector<ListedGpu> listed_gpus_in(const std::string &folder);

// The pure rule: the name of the GPU CUDA will use, given CUDA_VISIBLE_DEVICES and
// CUDA_DEVICE_ORDER (null when unset) and the listing; nullopt when it cannot be told for
// sure, or when no GPU is visible. A UUID (GPU-…, MIG-…) names itself, listed or not.
std::optional<std::string> gpu_in_use(const char *visible_devices, const char *device_order,
                                      const std::vector<ListedGpu> &gpus);

// Whether CUDA_VISIBLE_DEVICES, as given, hides every GPU ("" or a first entry CUDA
// cannot read, such as -1): such a judge finds no GPU and needs no turn on one.
bool no_gpu_visible(const char *visible_devices);

} // namespace gemm
