// A generated case described on the command line (--shape with --data and --seed, each
// shape of --stress, a shrunk shape), checked by the same parser as a testcase file. A
// problem is the command line's, so it names the option, never a file.
#pragma once

#include "common/shape.hpp"
#include "testcases/testcase.hpp"

#include <string>

namespace gemm {

// UsageError ("--data 'uniform 1 1': uniform needs LOW < HIGH") when the options do not
// make a valid case.
TestCase command_line_case(const Shape &shape, long long seed, const std::string &data);

// The same for a case of `problem`, its sizes in that problem's dims (problem.hpp); a count
// of sizes other than its dims' is a UsageError naming them.
struct ProblemDescriptor;
TestCase command_line_case(const ProblemDescriptor &problem, const std::vector<int> &sizes, long long seed,
                           const std::string &data);

} // namespace gemm
