// nvcc → a shared library holding the solution, taken from the compile cache when nothing
// nvcc would read has changed (compile_cache.hpp). CE is nvcc failing on the solution or
// stopped by a compile limit, or a library without solve() (solve_symbol.hpp); an nvcc that
// cannot run, an unusable cache folder or a full disk is a setup error, never CE. nvcc runs
// confined and bounded (compile_sandbox.hpp).
#pragma once

#include "compile/compile_options.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

// A solution's source is a regular file of at most this many bytes (after symbolic links):
// a FIFO or a device named x.cu would hang or flood nvcc, and no kernel needs a megabyte.
constexpr std::uintmax_t max_solution_bytes = 1u << 20;

// Why `path` cannot be a solution ("is a character device (/dev/zero)", "is 10.0 MiB; a
// solution is at most 1 MiB"), or nullopt.
std::optional<std::string> why_not_a_solution_file(const std::string &path);

struct CompileResult {
    bool ok = false;
    bool cached = false;
    bool rebuilt_damaged = false; // the cached library had changed on disk (truncated, overwritten)
    double seconds = 0;
    std::string library; // path of the .so on success
    // CE's message: "nvcc failed" and nvcc's own lines (file(line): error ...), then a line
    // when the cause is the GPU target (target_hint); or why the library has no solve().
    std::string diagnostics;
    std::string command;                 // the nvcc command line, for the report
    std::vector<std::string> unconfined; // what of nvcc's sandbox this kernel could not apply
};

std::vector<std::string> nvcc_arguments(const std::string &source, const std::string &output,
                                        const CompileOptions &options);

// What `nvcc --version` prints; SetupError (naming --nvcc) when nvcc cannot be run.
std::string nvcc_version(const std::string &nvcc);

// The folder of the judge's own solve.h (starter/solve.h), which declares solve() extern "C"
// so that LeetGPU's starter form (`#include "solve.h"`, a plain `void solve(...)`) compiles
// and is found as it is: the checkout the judge runs from ($GEMM_JUDGE_ROOT, set by ./judge),
// else the one it was built from. Searched last, after every other include folder.
std::string starter_include_dir();

// Throws UsageError when the source is not a solution file (why_not_a_solution_file),
// SetupError when nvcc cannot run, the cache folder cannot be used or its disk is full.
CompileResult compile_solution(const std::string &source_path, const CompileOptions &options);

} // namespace gemm
