#include "judging/os/scratch_folder.hpp"
#include "common/errors.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdlib.h>

namespace gemm {

namespace fs = std::filesystem;

ScratchFolder::ScratchFolder(const std::string &label) {
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    std::string pattern = ((ec ? fs::path("/tmp") : base) / (label + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data())) // mode 0700
        throw SetupError("cannot create a temporary folder " + pattern + ": " + std::strerror(errno) +
                         " (set TMPDIR to a folder you can write)");
    path_ = pattern;
    remove_on_interrupt_ = std::make_unique<PartialFileGuard>(path_, PartialFileGuard::Kind::folder);
}

ScratchFolder::~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

} // namespace gemm
