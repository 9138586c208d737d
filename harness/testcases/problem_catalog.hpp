// Every problem of the family below a testcases folder: each folder holding a problem.json,
// and the default problem, whose cases are the folder's own.
#pragma once

#include "testcases/problem.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm {

// The default problem first, then the others by name, numbers in number order
// (kernelbench/2-… before kernelbench/10-…). Throws ProblemError for a bad
// descriptor (its file and why).
std::vector<ProblemDescriptor> problems_below(const std::string &testcases_root);

// The folder of the problem named `name` below `testcases_root` (the root itself for the
// default problem); nothing when none has that name.
std::optional<std::string> problem_folder(const std::string &testcases_root, const std::string &name);

// "NAME: no problem has this name; did you mean …?" for a name problem_folder does not know.
std::string unknown_problem(const std::string &testcases_root, const std::string &name);

} // namespace gemm
