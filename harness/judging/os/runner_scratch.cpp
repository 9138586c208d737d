#include "judging/os/runner_scratch.hpp"
#include "runner/confinement.hpp"

#include <filesystem>
#include <stdexcept>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

RunnerScratch::RunnerScratch(const std::string &library) {
    std::string pattern = (fs::temp_directory_path() / "gemm-judge-runner-XXXXXX").string();
    if (!mkdtemp(pattern.data()))
        throw std::runtime_error("cannot make a folder for the solution's process in " +
                                 fs::temp_directory_path().string());
    dir_ = pattern;
    library_ = dir_ + "/solution.so";
    std::error_code ec;
    fs::copy_file(library, library_, ec);
    if (ec) throw std::runtime_error("cannot copy the compiled solution to " + library_ + ": " + ec.message());
    fs::permissions(library_, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read, ec);
    if (geteuid() == 0 && (chown(dir_.c_str(), sandbox::nobody_uid, sandbox::nogroup_gid) != 0 ||
                           chown(library_.c_str(), sandbox::nobody_uid, sandbox::nogroup_gid) != 0))
        throw std::runtime_error("cannot give " + dir_ + " to the unprivileged user");
}

RunnerScratch::~RunnerScratch() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

} // namespace gemm
