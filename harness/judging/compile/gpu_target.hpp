// The GPU target nvcc compiles a solution for: which one a GPU gets by default, the nvcc
// arguments that select it, and whether a given nvcc knows it.
#pragma once

#include "verification/case_result.hpp"

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

// The target of this run: --arch when given (`arch_option`), else default_target of the GPU
// present, else "" (nvcc's default). UsageError naming --arch, or SetupError for the GPU's
// own target, when `nvcc` does not know it.
std::string choose_target(const std::string &arch_option, const DeviceInfo &device, const std::string &nvcc);

} // namespace gemm
