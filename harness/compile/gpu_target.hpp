// The GPU target nvcc compiles a solution for: which one a GPU gets by default, and a run
// without a GPU; the nvcc arguments that select it; whether a given nvcc knows it; and
// whether a failed compile failed for the target rather than for the code.
#pragma once

#include "common/device.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm {

// The target for a GPU of compute capability major.minor: the arch-specific "sm_90a" on a
// Hopper (9.0), so a solution may use wgmma, TMA multicast and setmaxnreg, which the
// portable sm_90 lacks; every capability from 9.0 on has such a variant ("sm_100a").
// Older GPUs get the plain "sm_86".
std::string default_target(int cc_major, int cc_minor);

// "sm_90", "sm_90a" (arch-specific) or "sm_100f" (family-specific): what --arch accepts.
bool is_target_name(const std::string &target);

// The nvcc arguments for `target`. An arch- or family-specific target is one -gencode
// pair (nvcc's -arch=sm_90a shorthand also runs a plain compute_90 pass, which rejects
// wgmma); a plain one is -arch=sm_XY (its SASS and its PTX). Empty for an empty target.
std::vector<std::string> target_arguments(const std::string &target);

// Does an nvcc whose `nvcc --list-gpu-code` printed `listed_codes` compile for `target`?
// That list names only the plain targets; a variant is known when its base is listed and
// has one (sm_90a with sm_90; sm_100f with sm_100).
bool nvcc_knows_target(const std::string &target, const std::string &listed_codes);

// Without a GPU and without --arch, a solution is compiled for the H200's target: the
// shipped ladder is written for it (cp.async, TF32, wgmma), so a CE is then the one a
// Hopper would give. nvcc's own default (sm_75 in CUDA 13) refuses even cp.async.
constexpr const char *target_without_gpu = "sm_90a";

// The target of this run: --arch when given (`arch_option`), else default_target of the GPU
// present, else target_without_gpu, or "" (nvcc's default) where `nvcc` does not know that
// one. UsageError naming --arch, or SetupError for the GPU's own target, when `nvcc` does
// not know it.
std::string choose_target(const std::string &arch_option, const DeviceInfo &device, const std::string &nvcc);

// The target as a run's first line names it, saying where it came from when no GPU chose it:
// "sm_90a (no GPU found; --arch to choose)", "nvcc's default target".
std::string target_in_words(const std::string &target, const std::string &arch_option, const DeviceInfo &device);

// One line when nvcc's messages (`nvcc_output`) say the code needs another target than
// `target` ("Feature 'cp.async' requires .target sm_80 or higher", "Instruction 'wgmma.fence'
// not supported on .target 'sm_90'"): what it needs and the --arch that gives it. None for
// errors in the code itself.
std::optional<std::string> target_hint(const std::string &nvcc_output, const std::string &target);

} // namespace gemm
