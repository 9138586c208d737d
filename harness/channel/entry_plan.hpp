// How the runner calls a problem's entry point: its symbol, and where each argument comes
// from — the call's A, B or C, or one of the case's dims — with its C type. The judge makes it
// from the problem's descriptor and hands it to the runner on its command line as text
// ("solution:A,B,bias,C,0/size_t,1/size_t,2/size_t"; the epilogue's factor matrix: "factor";
// a scalar by its role: "=nnz/int"), so the
// runner reads no descriptor.
#pragma once

#include "testcases/problem.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm {

struct EntryArgument {
    enum class Source { A, B, C, Bias, Factor, Dim, Scalar } source = Source::A;
    int dim = 0;      // Source::Dim: which of the case's dims
    std::string role; // Source::Scalar: the call's scalar of this role (CallOrder::scalars)
    ParameterType type = ParameterType::ConstFloatPointer;
};

struct EntryPlan {
    std::string symbol;
    std::vector<EntryArgument> arguments;
};

// Throws ProblemError when the problem has arguments the runner cannot pass yet (a
// parameter in a role other than A, B, C, bias, E (the factor), nnz, slope or scale).
EntryPlan entry_plan_of(const ProblemDescriptor &problem);
std::string entry_plan_text(const EntryPlan &plan);
std::optional<EntryPlan> parse_entry_plan(const std::string &text);

} // namespace gemm
