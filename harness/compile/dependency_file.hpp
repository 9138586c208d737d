// The files nvcc read while compiling, from the make rule its -MD option writes, e.g.
//   out.so.part : sol.cu /usr/include/stdc-predef.h my\ headers/helper.cuh
// with long lines continued by a backslash at the end.
#pragma once

#include <string>
#include <vector>

namespace gemm {

// The rule's prerequisites in order, unescaped ("\ " is a space, "$$" a dollar sign).
// Empty when the text holds no rule.
std::vector<std::string> dependency_file_inputs(const std::string &text);

} // namespace gemm
