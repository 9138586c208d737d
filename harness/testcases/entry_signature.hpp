// The extern "C" functions a solution's source defines, with their parameter types, read
// from the text (comments removed) without compiling it: enough to tell which problem of the
// family a solution answers (`solution(const float *, …, size_t)` is Tensara's, `solve(…, int)`
// LeetGPU's), never to judge it — the compiled library is what runs.
#pragma once

#include "testcases/problem.hpp"

#include <string>
#include <vector>

namespace gemm {

struct EntrySignature {
    std::string name;
    std::vector<std::string> types; // normalised: "const float *", "size_t", "int"
};

std::vector<EntrySignature> extern_c_functions(const std::string &source);

// "const  float* A" → "const float *"; "std::size_t n" → "size_t"; "__half *" → "half *",
// "nv_bfloat16" → "__nv_bfloat16".
std::string normalised_type(const std::string &parameter);

// Whether one of the functions is the problem's entry point with its parameter types.
bool answers(const std::vector<EntrySignature> &functions, const ProblemDescriptor &problem);

} // namespace gemm
