// What nvcc may do while it compiles an untrusted solution, and why it stopped when a limit
// stopped it. nvcc and every program it starts (cudafe++, cicc, ptxas, gcc, ld) read only
// the system's programs and libraries, the toolkit, the host compiler, the solution's folder
// and the include folders named; write only their private TMPDIR and the compile cache's
// folder; open no network socket; and each has RLIMIT_AS (the compile memory limit) and
// RLIMIT_CPU, while the judge kills the whole process group at the compile time limit.
// So `#include "/dev/zero"` is refused at once instead of growing cc1plus until the
// system's OOM killer ends it, and `#include "/root/secret.case"` shows nothing of it.
#pragma once

#include "compile/compile_options.hpp"
#include "judging/os/process.hpp"
#include "sandbox/policy.hpp"

#include <optional>
#include <string>

namespace gemm {

sandbox::Policy compile_policy(const std::string &source, const CompileOptions &options, const std::string &tmpdir);

// The line shown before nvcc's own messages when a compile limit is what stopped it:
// "nvcc ran past the compile time limit of 120 s …", "nvcc exceeded the compile memory
// limit of 8 GiB …"; nullopt when nvcc failed on its own.
std::optional<std::string> compile_limit_reached(const CapturedRun &run, const CompileLimits &limits);

// The folder whose disk is full when nvcc says "No space left on device": the one holding
// its TMPDIR when the message names it, else the cache's; nullopt when nvcc did not say so.
std::optional<std::string> full_disk_folder(const std::string &output, const std::string &tmpdir,
                                            const std::string &cache_dir);

} // namespace gemm
