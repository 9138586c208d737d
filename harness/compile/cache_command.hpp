// `./judge cache info|clean`: where compiled solutions are kept, how much they take, and
// emptying the folder.
#pragma once

#include <string>

namespace gemm {

// `action` is "info" or "clean"; returns the exit status (SetupError for an unusable folder).
int run_cache_command(const std::string &action, const std::string &cache_dir);

} // namespace gemm
