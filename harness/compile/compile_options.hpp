// What a compile is asked for (nvcc, target, include folders) and the limits it runs
// under: shared by the compile itself (compile.hpp) and its confinement (compile_sandbox.hpp).
#pragma once

#include <string>
#include <vector>

namespace gemm {

// Real solutions stay far below both: every ladder rung compiles in under 5 s within 256 MiB
// of address space per program (measured); 8 GiB leaves template-heavy header libraries
// such as CUTLASS ample room, and is reached by `#include "/dev/zero"` (where Landlock does
// not refuse it first) in about 20 s rather than at the machine's OOM killer.
struct CompileLimits {
    double wall_seconds = 120; // --compile-timeout: the whole compile, every program nvcc starts
    double memory_gib = 8;     // --compile-memory: the address space of each of those programs
};

struct CompileOptions {
    std::string nvcc = "nvcc";
    std::string arch;                      // "sm_90a" (gpu_target.hpp); empty leaves nvcc's default target
    std::string cache_dir;                 // where libraries are kept between runs
    std::vector<std::string> include_dirs; // absolute; searched after the solution's own folder
    std::vector<std::string> extra_flags;
    CompileLimits limits;
    // The function the library must export (the problem's entry point), and its declaration
    // for the CE that says it is missing.
    std::string entry = "solve";
    std::string entry_declaration;
};

} // namespace gemm
