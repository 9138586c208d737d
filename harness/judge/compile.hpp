// nvcc → a shared library holding the solution, cached by content, flags and compiler.
#pragma once

#include <string>
#include <vector>

namespace gemm {

struct CompileOptions {
    std::string nvcc = "nvcc";
    std::string arch;      // "sm_90"; empty leaves nvcc's default target
    std::string cache_dir; // where libraries are kept between runs
    std::vector<std::string> extra_flags;
};

struct CompileResult {
    bool ok = false;
    bool cached = false;
    double seconds = 0;
    std::string library;     // path of the .so on success
    std::string diagnostics; // nvcc's own messages (file(line): error ...) on failure
    std::string command;     // the nvcc command line, for the report
};

std::vector<std::string> nvcc_arguments(const std::string &source, const std::string &output,
                                        const CompileOptions &options);

// FNV-1a over everything that changes the library: a second run with the same
// source, flags and compiler reuses it instead of paying nvcc's seconds again.
std::string cache_key(const std::string &source_text, const std::vector<std::string> &arguments,
                      const std::string &compiler_version);

CompileResult compile_solution(const std::string &source_path, const CompileOptions &options);

std::string default_cache_dir();

} // namespace gemm
