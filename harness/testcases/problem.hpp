// A problem of the matmul family as data: its `problem.json` read and checked
// (docs/problems.md says what each key means). The descriptor says how the solution is
// called (entry point, parameters, which is which), how a case's own dimensions make the
// product the referee checks (M×N times N×K, N the inner dimension), and what the problem
// asks beyond a plain FP32 product (dtypes, transposes, batches, α/β, epilogues,
// quantization, structured inputs) — what this judge cannot judge yet is said, never
// judged as something else.
#pragma once

#include "common/epilogue.hpp"
#include "common/product_layout.hpp"
#include "common/rng.hpp"
#include "verification/site_allclose.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemm {

// The C types an entry point's parameters may have, as the runner passes them.
enum class ParameterType { FloatPointer, ConstFloatPointer, OtherPointer, Int, SizeT, Float };

struct ProblemParameter {
    std::string name;
    std::string type; // as the descriptor writes it: "const float *", "size_t"
    ParameterType kind = ParameterType::Int;
};

struct ProblemDescriptor {
    std::string name;  // "tensara/matmul-3d": its folder below testcases/
    std::string site;  // "LeetGPU", "Tensara", "KernelBench"
    std::string title; // the site's title
    std::string url;   // where the site defines it
    std::string entry; // the symbol the solution exports
    std::vector<ProblemParameter> parameters;
    std::map<std::string, std::string> roles; // role ("A", "alpha") → parameter name
    std::vector<std::string> dims;            // the case's `shape` values, in order
    // M, N (inner), K of the product, each a product of dims (empty: 1).
    std::array<std::vector<std::string>, 3> gemm;
    std::string baseline;                           // the cuBLAS routine timed beside the solution
    nlohmann::json rest = nlohmann::json::object(); // the keys this judge does not act on yet
    std::string folder;                             // where problem.json is; its cases are below it
    bool is_default = false;

    // "extern "C" void solution(const float *A, …, size_t n)"
    std::string signature() const;
    // "fp32", or "fp16 in, fp32 accumulate, fp16 out"
    std::string dtypes() const;
    // What this judge cannot judge of it yet ("fp16 operands", "an epilogue: bias, relu"); empty
    // when it judges it as the product of FP32 A and B.
    std::vector<std::string> not_yet_judged() const;
    // How the generator shapes operand "A" or "B" (General where the judge has no such shape,
    // and for a diagonal, which is a layout).
    Structure structure(const char *operand) const;
    // A masked operand's density (`structure.density`, 1 without one).
    double mask_density() const;
    // The site's own allclose tolerance (`tolerance`: atol, rtol), reported beside the verdict.
    std::optional<SiteTolerance> site_tolerance() const;
    // How the solution's operands are stored for a case of these dims: the batch's count, the
    // transposes, A's diagonal, the epilogue's operands and a C of one number.
    ProductLayout layout(const std::vector<long long> &dims) const;
    // The `scalars` key: the value of each scalar role a case does not set.
    std::map<std::string, double> default_scalars() const;
    // The `data` of a case made from the command line (--shape, --stress) when --data is not
    // given: "uniform -1 1", or int8's whole range for an int8 problem.
    std::string default_data() const;
    // The epilogue with a case's scalars in its steps (empty where the problem has none, or
    // one not_yet_judged() names).
    Epilogue epilogue(const std::map<std::string, double> &scalars) const;
    // The case's dims → M, N, K of the product.
    std::array<long long, 3> gemm_shape(const std::vector<long long> &dims) const;
};

// "lower" → Lower; nothing for a structure the generator does not make ("diagonal" is a layout).
std::optional<Structure> structure_of(const std::string &name);

// `file:0: why` (escaped), for a descriptor that is not one.
struct ProblemError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The seed's problem, LeetGPU #2: what a suite without a problem.json holds.
const ProblemDescriptor &default_problem();

ProblemDescriptor parse_problem(const std::string &text, const std::string &path);
ProblemDescriptor load_problem(const std::string &path);

// The descriptor file of the suite at `folder`: folder/problem.json.
std::string problem_file_of(const std::string &folder);

// The problem whose cases are below `suite_root`: its problem.json, read once per process,
// or the default problem where there is none. Throws ProblemError for a bad descriptor.
const ProblemDescriptor &suite_problem(const std::string &suite_root);

} // namespace gemm
