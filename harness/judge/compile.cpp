#include "judge/compile.hpp"
#include "core/errors.hpp"
#include "core/text.hpp"
#include "judge/compile_cache.hpp"
#include "judge/dependency_file.hpp"
#include "judge/gpu_target.hpp"
#include "judge/interrupt.hpp"
#include "judge/process.hpp"

#include <chrono>
#include <filesystem>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// The toolkit's library folder, so the solution finds libcublas without LD_LIBRARY_PATH.
std::string toolkit_library_dir(const std::string &nvcc) {
    std::error_code ec;
    const auto canonical = fs::weakly_canonical(find_program(nvcc), ec);
    return (canonical.parent_path().parent_path() / "lib64").string();
}

std::string joined(const std::vector<std::string> &words) {
    std::string text;
    for (const auto &w : words) text += (text.empty() ? "" : " ") + w;
    return text;
}

} // namespace

std::vector<std::string> nvcc_arguments(const std::string &source, const std::string &output,
                                        const CompileOptions &options) {
    std::vector<std::string> args = {options.nvcc, "-O3", "-std=c++17", "-shared", "-Xcompiler=-fPIC", "-lineinfo"};
    const auto target = target_arguments(options.arch);
    args.insert(args.end(), target.begin(), target.end());
    for (const auto &dir : options.include_dirs) args.push_back("-I" + dir);
    args.insert(args.end(), options.extra_flags.begin(), options.extra_flags.end());
    args.insert(args.end(),
                {"-o", output, source, "-lcublas", "-Xlinker", "-rpath=" + toolkit_library_dir(options.nvcc)});
    return args;
}

std::string nvcc_version(const std::string &nvcc) {
    const auto run = run_captured({nvcc, "--version"});
    if (run.started && run.exit_code == 0) return run.output;
    const std::string why = !run.started ? "not found or not executable" : "`--version` failed: " + run.output;
    throw SetupError("cannot run nvcc `" + nvcc + "` (" + why +
                     "): give the CUDA Toolkit's nvcc with --nvcc, or put its bin folder on PATH");
}

CompileResult compile_solution(const std::string &source_path, const CompileOptions &options) {
    const auto started = std::chrono::steady_clock::now();
    const auto started_on_disk = fs::file_time_type::clock::now();
    CompileResult result;
    const std::string version = nvcc_version(options.nvcc);
    CompileCache cache(options.cache_dir);
    // The key's arguments name the source absolutely and no output: the output's name is the key's.
    const std::string entry =
        cache_entry_name(source_path, nvcc_arguments(fs::absolute(source_path).string(), "", options), version);
    if (auto library = cache.find(entry, result.rebuilt_damaged)) {
        result.ok = result.cached = true;
        result.library = *library;
        return result;
    }

    const std::string partial = cache.scratch_path(entry, ".so");
    const std::string dependencies = cache.scratch_path(entry, ".d");
    const PartialFileGuard remove_partial_on_interrupt(partial);
    const PartialFileGuard remove_dependencies_on_interrupt(dependencies);
    auto args = nvcc_arguments(source_path, partial, options);
    args.insert(args.end(), {"-MD", "-MF", dependencies}); // every file nvcc reads, for the cache key
    result.command = joined(args);
    const auto run = run_captured(args);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const auto inputs = dependency_file_inputs(read_text_file(dependencies).value_or(""));
    std::error_code ec;
    fs::remove(dependencies, ec);
    if (run.signal != 0 || run.exit_code != 0) {
        result.diagnostics = run.output.empty() ? "nvcc failed without a message" : run.output;
        fs::remove(partial, ec);
        return result;
    }
    result.library = cache.store(entry, partial, inputs, started_on_disk);
    result.ok = true;
    return result;
}

} // namespace gemm
