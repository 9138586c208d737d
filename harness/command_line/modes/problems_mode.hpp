// ./judge problems: the family's problems, one entry each (name, site, dtypes, whether this
// judge judges it yet, the entry point); ./judge problems NAME: one problem's statement and
// starter, to begin a solution from.
#pragma once

#include <string>

namespace gemm {

int list_problems(const std::string &testcases_root);
int show_problem(const std::string &testcases_root, const std::string &name);

} // namespace gemm
