#include "compile/compile.hpp"
#include "common/errors.hpp"
#include "common/nearest_name.hpp"
#include "common/text.hpp"
#include "compile/compile_cache.hpp"
#include "compile/compile_sandbox.hpp"
#include "compile/dependency_file.hpp"
#include "compile/gpu_target.hpp"
#include "compile/solve_symbol.hpp"
#include "judging/os/interrupt.hpp"
#include "judging/os/process.hpp"
#include "judging/os/scratch_folder.hpp"
#include "sandbox/confine.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sys/stat.h>

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

std::string file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "something else";
}

// The .cu file beside a missing `path` whose name is nearest to its name: "solutions/tiled.cu"
// for "solutions/tild.cu".
std::optional<std::string> nearest_solution_file(const std::string &path) {
    const fs::path typed(path);
    std::error_code ec;
    std::vector<std::string> names;
    for (fs::directory_iterator it(typed.has_parent_path() ? typed.parent_path() : ".", ec), end; !ec && it != end;
         it.increment(ec))
        if (it->path().extension() == ".cu" && it->is_regular_file(ec)) names.push_back(it->path().filename());
    std::sort(names.begin(), names.end()); // the same suggestion whatever order the folder lists
    const auto near = nearest_name(typed.filename().string(), names);
    if (!near) return std::nullopt;
    return (typed.parent_path() / *near).string();
}

constexpr std::size_t max_compiler_output = 1u << 20; // a flood of errors is cut, not held in memory

// A library that defines no solve() is CE too, said in the solution's terms (solve_symbol.hpp).
CompileResult with_solve_checked(CompileResult result, const std::string &source_path, const std::string &library,
                                 const CompileOptions &options) {
    result.library = library;
    const auto missing = missing_solve(source_path, library, options.entry, options.entry_declaration);
    result.ok = !missing;
    if (missing) result.diagnostics = *missing;
    return result;
}

} // namespace

std::optional<std::string> why_not_a_solution_file(const std::string &path) {
    struct stat s {};
    if (stat(path.c_str(), &s) != 0) {
        const std::string why = std::strerror(errno);
        if (const auto near = nearest_solution_file(path)) return why + "; did you mean " + *near + "?";
        return why;
    }
    std::error_code ec;
    const auto real = fs::canonical(path, ec);
    const std::string where = !ec && real != fs::absolute(path).lexically_normal() ? " (" + real.string() + ")" : "";
    if (!S_ISREG(s.st_mode))
        return "is " + file_kind(s.st_mode) + where + ", not a regular file; a solution is a CUDA source file";
    if (static_cast<std::uintmax_t>(s.st_size) > max_solution_bytes)
        return formatted("is %.1f MiB; a solution is at most %ju MiB of source", s.st_size / double(1 << 20),
                         max_solution_bytes >> 20);
    return std::nullopt;
}

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

std::string starter_include_dir() {
    const char *root = std::getenv("GEMM_JUDGE_ROOT");
    if (root && *root) return std::string(root) + "/harness/compile/starter";
    return GEMM_JUDGE_STARTER_DIR;
}

std::string nvcc_version(const std::string &nvcc) {
    const auto run = run_captured({nvcc, "--version"});
    if (run.started && run.exit_code == 0) return run.output;
    const std::string why = !run.started ? "not found or not executable" : "`--version` failed: " + run.output;
    throw SetupError("cannot run nvcc `" + nvcc + "` (" + why +
                     "): give the CUDA Toolkit's nvcc with --nvcc, or put its bin folder on PATH");
}

CompileResult compile_solution(const std::string &source_path, const CompileOptions &options) {
    if (const auto why = why_not_a_solution_file(source_path)) throw UsageError(source_path + ": " + *why);
    const auto started = std::chrono::steady_clock::now();
    const auto started_on_disk = fs::file_time_type::clock::now();
    CompileResult result;
    const std::string version = nvcc_version(options.nvcc);
    CompileCache cache(options.cache_dir);
    // The key's arguments name the source absolutely and no output: the output's name is the key's.
    const std::string entry =
        cache_entry_name(source_path, nvcc_arguments(fs::absolute(source_path).string(), "", options), version);
    if (auto library = cache.find(entry, result.rebuilt_damaged)) {
        result.cached = true;
        return with_solve_checked(std::move(result), source_path, *library, options);
    }

    const std::string partial = cache.scratch_path(entry, ".so");
    const std::string dependencies = cache.scratch_path(entry, ".d");
    const PartialFileGuard remove_partial_on_interrupt(partial);
    const PartialFileGuard remove_dependencies_on_interrupt(dependencies);
    auto args = nvcc_arguments(source_path, partial, options);
    args.insert(args.end(), {"-MD", "-MF", dependencies}); // every file nvcc reads, for the cache key
    result.command = joined(args);
    const ScratchFolder tmpdir("gemm-judge-nvcc");
    const sandbox::ChildConfinement confinement(compile_policy(source_path, options, tmpdir.path()));
    result.unconfined = confinement.unconfined();
    const auto run = run_captured(
        args, {options.limits.wall_seconds, {"TMPDIR=" + tmpdir.path()}, &confinement, max_compiler_output});
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const auto inputs = dependency_file_inputs(read_text_file(dependencies).value_or(""));
    std::error_code ec;
    fs::remove(dependencies, ec);
    if (run.signal != 0 || run.exit_code != 0 || run.timed_out) {
        fs::remove(partial, ec);
        if (run.confinement_failed)
            throw SetupError("the kernel refused nvcc's sandbox (Landlock, seccomp or a resource limit), so "
                             "nothing was compiled");
        if (const auto full = full_disk_folder(run.output, tmpdir.path(), cache.folder()))
            throw SetupError("the disk of " + *full +
                             " is full (nvcc: No space left on device); free some space, "
                             "or give the cache another folder with --cache-dir (temporary files: TMPDIR)");
        result.diagnostics = run.output.empty() ? "nvcc failed without a message" : "nvcc failed\n" + run.output;
        if (const auto limit = compile_limit_reached(run, options.limits))
            result.diagnostics = *limit + "\n" + result.diagnostics;
        else if (const auto hint = target_hint(run.output, options.arch))
            result.diagnostics += (result.diagnostics.back() == '\n' ? "" : "\n") + *hint + "\n";
        return result;
    }
    return with_solve_checked(std::move(result), source_path, cache.store(entry, partial, inputs, started_on_disk),
                              options);
}

} // namespace gemm
