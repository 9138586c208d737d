// Which GPUs a batch's lanes use (--gpus all|0,1,…) and how each lane's judge is given its
// GPU: by CUDA_VISIBLE_DEVICES, set to the GPU's UUID, so that the judge's turn on the GPU
// and everything it starts see that one GPU alone (judging/os/gpu_turn.hpp). The GPUs are
// those this process may use: the entries of its own CUDA_VISIBLE_DEVICES where set (a
// Slurm task's), else every GPU nvidia-smi lists. With none, one lane without a GPU: its
// judges still compile, so a CE is still found, and say "no GPU" otherwise.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gemm::batch {

struct ListedDevice {
    std::string index; // nvidia-smi's
    std::string uuid;
    std::string name;
    std::string compute_capability; // "9.0"; "" where this nvidia-smi does not say
};

// The label of the one lane there is when no GPU is.
constexpr const char *no_gpu_lane = "none";

struct GpuLane {
    std::string label;                          // "0", "1", … as --gpus names it; "none"
    std::optional<std::string> visible_devices; // CUDA_VISIBLE_DEVICES for its judges; nullopt: as given
    // The target nvcc compiles for on this GPU (sm_90a), to compile ahead for it; "" for
    // nvcc's default (no GPU), nullopt where it is not known (then nothing compiles ahead).
    std::optional<std::string> target;
};

// `nvidia-smi --query-gpu=index,uuid,name,compute_cap --format=csv,noheader` as rows.
std::vector<ListedDevice> parse_device_listing(const std::string &csv);

// What nvidia-smi lists here; none when it is absent or fails.
std::vector<ListedDevice> listed_devices();

// The pure rule. UsageError (naming --gpus) for a list that names a GPU not there, twice,
// or is not a list of indices.
std::vector<GpuLane> choose_lanes(const std::string &gpus_option, const char *visible_devices,
                                  const std::vector<ListedDevice> &devices);

} // namespace gemm::batch
