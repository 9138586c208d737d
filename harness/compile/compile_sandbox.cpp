#include "compile/compile_sandbox.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// The installation a program belongs to: /usr/local/cuda-13.0 for its bin/nvcc, /usr for
// /usr/bin/g++ (symbolic links resolved, so /usr/local/cuda names the real folder); only
// its own folder when that is not a bin/ (a wrapper script in some folder of the user's).
std::string installation_of(const std::string &program) {
    std::error_code ec;
    const fs::path found = find_program(program);
    if (found.empty()) return "";
    const fs::path real = fs::canonical(found, ec);
    if (ec) return "";
    const fs::path folder = real.parent_path();
    const bool in_bin = folder.filename() == "bin" && folder.parent_path() != folder.root_path();
    return (in_bin ? folder.parent_path() : folder).string();
}

void add_folder_of(const std::string &path, std::vector<std::string> &into) {
    into.push_back(fs::absolute(path).parent_path().lexically_normal().string());
    std::error_code ec;
    const auto real = fs::canonical(path, ec); // a solution that is a link: nvcc reads beside both
    if (!ec) into.push_back(real.parent_path().string());
}

bool mentions(const std::string &text, std::initializer_list<const char *> phrases) {
    return std::any_of(phrases.begin(), phrases.end(),
                       [&](const char *p) { return text.find(p) != std::string::npos; });
}

} // namespace

sandbox::Policy compile_policy(const std::string &source, const CompileOptions &options, const std::string &tmpdir) {
    sandbox::Policy policy;
    // /etc only for what the loader and the compilers read: not /etc/shadow, which nvcc run
    // by root could otherwise quote in an error message.
    policy.readable = {"/usr",
                       "/lib",
                       "/lib64",
                       "/bin",
                       "/sbin",
                       "/etc/ld.so.cache",
                       "/etc/alternatives",
                       "/etc/localtime",
                       "/proc/sys/vm/overcommit_memory"};
    for (const std::string &program : {options.nvcc, std::string("g++"), std::string("gcc")})
        if (const auto root = installation_of(program); !root.empty()) policy.readable.push_back(root);
    add_folder_of(source, policy.readable);
    policy.readable.insert(policy.readable.end(), options.include_dirs.begin(), options.include_dirs.end());
    policy.writable = {tmpdir, options.cache_dir};
    policy.devices = {"/dev/null", "/dev/urandom"};
    const double bytes = options.limits.memory_gib * double(1ull << 30);
    policy.limits.address_space_bytes = static_cast<rlim_t>(bytes);
    // Per process: the judge's clock stops the whole compile first, this catches one that escaped it.
    policy.limits.cpu_seconds = static_cast<rlim_t>(std::ceil(options.limits.wall_seconds)) + 1;
    return policy;
}

std::optional<std::string> compile_limit_reached(const CapturedRun &run, const CompileLimits &limits) {
    const bool over_cpu_time = run.signal == SIGXCPU || mentions(run.output, {"CPU time limit", "signal 24"});
    if (run.timed_out || over_cpu_time)
        return formatted("nvcc ran past the compile time limit of %g s (--compile-timeout S)", limits.wall_seconds);
    if (mentions(run.output, {"out of memory", "memory exhausted", "bad_alloc", "Cannot allocate memory"}))
        return formatted("nvcc exceeded the compile memory limit of %g GiB (--compile-memory GiB)", limits.memory_gib);
    return std::nullopt;
}

std::optional<std::string> full_disk_folder(const std::string &output, const std::string &tmpdir,
                                            const std::string &cache_dir) {
    const auto at = output.find("No space left on device");
    if (at == std::string::npos) return std::nullopt;
    const auto newline = output.rfind('\n', at);
    const std::size_t line_start = newline == std::string::npos ? 0 : newline + 1;
    const std::string line = output.substr(line_start, at - line_start);
    // The private TMPDIR is gone by the time the user reads this: name the folder it was in.
    return line.find(tmpdir) != std::string::npos ? fs::path(tmpdir).parent_path().string() : cache_dir;
}

} // namespace gemm
