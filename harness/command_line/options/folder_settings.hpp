// Settings shared by every solution in a folder, from a file `gemm-judge.conf` beside them,
// so a folder of CUTLASS or CuTe exercises names its header libraries once:
//
//   # every solution here uses CUTLASS and CuTe
//   include ../third_party/cutlass/include
//   include ~/cutlass/tools/util/include
//
//   problem tensara/matmul-3d      # every solution here answers this problem
//
// `problem NAME` names the problem (docs/problems.md) as --problem would; --problem wins.
// `include DIR` adds an nvcc include folder (after those of --include); a relative DIR is
// relative to the file's folder, `~/` is $HOME; the rest of the line is the folder. `#`
// starts a comment.
#pragma once

#include <string>
#include <vector>

namespace gemm {

constexpr const char *folder_settings_file = "gemm-judge.conf";

struct FolderSettings {
    std::string file;                      // the file read; empty when the folder has none
    std::vector<std::string> include_dirs; // absolute
    std::string problem;                   // `problem NAME`: the problem its solutions answer
};

// The settings of the folder holding `solution_path`. SetupError with `file:line: why`
// for a line it does not understand or an include folder that does not exist.
FolderSettings folder_settings(const std::string &solution_path);

} // namespace gemm
