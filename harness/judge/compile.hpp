// nvcc → a shared library holding the solution, taken from the compile cache when nothing
// nvcc would read has changed (compile_cache.hpp). CE is nvcc failing on the solution; an
// nvcc that cannot run or an unusable cache folder is a setup error, never CE.
#pragma once

#include <string>
#include <vector>

namespace gemm {

struct CompileOptions {
    std::string nvcc = "nvcc";
    std::string arch;                      // "sm_90a" (gpu_target.hpp); empty leaves nvcc's default target
    std::string cache_dir;                 // where libraries are kept between runs
    std::vector<std::string> include_dirs; // absolute; searched after the solution's own folder
    std::vector<std::string> extra_flags;
};

struct CompileResult {
    bool ok = false;
    bool cached = false;
    bool rebuilt_damaged = false; // the cached library had changed on disk (truncated, overwritten)
    double seconds = 0;
    std::string library;     // path of the .so on success
    std::string diagnostics; // nvcc's own messages (file(line): error ...) on failure
    std::string command;     // the nvcc command line, for the report
};

std::vector<std::string> nvcc_arguments(const std::string &source, const std::string &output,
                                        const CompileOptions &options);

// What `nvcc --version` prints; SetupError (naming --nvcc) when nvcc cannot be run.
std::string nvcc_version(const std::string &nvcc);

// Throws SetupError when nvcc cannot run or the cache folder cannot be used.
CompileResult compile_solution(const std::string &source_path, const CompileOptions &options);

} // namespace gemm
