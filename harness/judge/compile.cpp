#include "judge/compile.hpp"
#include "core/text.hpp"
#include "judge/process.hpp"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// The toolkit's library folder, so the solution finds libcublas without LD_LIBRARY_PATH.
std::string toolkit_library_dir(const std::string &nvcc) {
    std::string resolved = nvcc;
    if (nvcc.find('/') == std::string::npos) {
        const auto which = run_captured({"sh", "-c", "command -v " + nvcc});
        resolved = which.output.substr(0, which.output.find('\n'));
    }
    std::error_code ec;
    const auto canonical = fs::weakly_canonical(resolved, ec);
    return (canonical.parent_path().parent_path() / "lib64").string();
}

} // namespace

std::vector<std::string> nvcc_arguments(const std::string &source, const std::string &output,
                                        const CompileOptions &options) {
    std::vector<std::string> args = {options.nvcc, "-O3", "-std=c++17", "-shared", "-Xcompiler=-fPIC", "-lineinfo"};
    if (!options.arch.empty()) args.push_back("-arch=" + options.arch);
    args.insert(args.end(), options.extra_flags.begin(), options.extra_flags.end());
    args.insert(args.end(),
                {"-o", output, source, "-lcublas", "-Xlinker", "-rpath=" + toolkit_library_dir(options.nvcc)});
    return args;
}

std::string cache_key(const std::string &source_text, const std::vector<std::string> &arguments,
                      const std::string &compiler_version) {
    std::uint64_t hash = 0xcbf29ce484222325ull;
    auto mix = [&hash](const std::string &text) {
        for (unsigned char c : text) hash = (hash ^ c) * 0x100000001b3ull;
        hash = (hash ^ 0xFF) * 0x100000001b3ull; // field separator
    };
    mix(source_text);
    for (const auto &a : arguments) mix(a);
    mix(compiler_version);
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return hex;
}

std::string default_cache_dir() {
    if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/gemm-judge";
    if (const char *home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/gemm-judge";
    return (fs::temp_directory_path() / "gemm-judge-cache").string();
}

CompileResult compile_solution(const std::string &source_path, const CompileOptions &options) {
    const auto started = std::chrono::steady_clock::now();
    CompileResult result;
    const auto version = run_captured({options.nvcc, "--version"});
    if (!version.started || version.exit_code != 0) {
        result.diagnostics = "cannot run nvcc (`" + options.nvcc + "`): is the CUDA Toolkit installed and on PATH?";
        return result;
    }
    fs::create_directories(options.cache_dir);
    const auto stem = fs::path(source_path).stem().string();
    // Arguments without the output path, which itself depends on the key.
    const auto key_args = nvcc_arguments(fs::absolute(source_path).string(), "", options);
    const auto library =
        fs::path(options.cache_dir) /
        (stem + "-" + cache_key(read_text_file(source_path).value_or(""), key_args, version.output) + ".so");
    result.library = library.string();
    if (fs::exists(library)) {
        result.ok = result.cached = true;
        return result;
    }
    const auto partial = library.string() + ".part" + std::to_string(getpid());
    const auto args = nvcc_arguments(source_path, partial, options);
    for (const auto &a : args) result.command += (result.command.empty() ? "" : " ") + a;
    const auto run = run_captured(args);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (run.signal != 0 || run.exit_code != 0) {
        result.diagnostics = run.output.empty() ? "nvcc failed without a message" : run.output;
        std::error_code ec;
        fs::remove(partial, ec);
        return result;
    }
    fs::rename(partial, library); // atomic: a concurrent judge never loads half a library
    result.ok = true;
    return result;
}

} // namespace gemm
