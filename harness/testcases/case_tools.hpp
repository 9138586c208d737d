// Testcase authoring: create, validate, show, export and import testcase files.
#pragma once
#include "testcases/testcase.hpp"
#include <optional>
#include <string>
#include <utility>
#include <vector>
namespace gemm {
struct NewCaseRequest {
    std::string name;                  // "secret/19-my-case": the path below the suite root without ".case"
    std::vector<long long> dims;       // the shape line's sizes, in the suite's problem's dims (M N K for the default)
    std::string data = "uniform -1 1"; // the words after `data`: "uniform LOW HIGH", "integers LOW HIGH", "normal",
                                       // "mixed", "sparse DENSITY"
    long long seed = 1;                // signed, so a negative seed is refused as itself, not as 2^64 - 5
    std::optional<double> time_limit_s;
    std::string comment; // first line of the file, after "# "; may be empty
};
// Writes <suite_root>/<name>.case; the text is validated with parse_testcase before anything is written.
// Refuses (UsageError naming the option: --shape, --data, …) a name without a category folder, a name with
// "..", an existing file (never overwrites), or invalid fields; SetupError when the file cannot be written.
// Returns the path written.
std::string create_generated_case(const std::string &suite_root, const NewCaseRequest &request);
// Imports a competitive-programming pair: `.in` holds "M N K" then the M·N numbers of A then the N·K numbers of B,
// whitespace-separated in any line layout; the optional `.ans` holds the M·K numbers of C. Writes an explicit case (A,
// B, and C when given) named `name`; C, when given, must agree with A·B (expected_output_mismatch), else TestcaseError
// naming the .ans file. Errors name `file:line: why` where a line is known (too few numbers, a non-number, sizes over
// 10^6 elements per matrix). Returns the path written.
std::string import_pair(const std::string &suite_root, const std::string &name, const std::string &in_path,
                        const std::string &ans_path);
// Exports a case as DIR/<last part of its name>.in and .ans: the checked inputs (case_inputs(tc, checked_input_set))
// and C = the FP64 reference rounded to float, every number printed with "%.9g" (round-trips floats exactly). Refuses
// cases with more than 10^7 elements in A, B or C. Returns the two paths.
std::pair<std::string, std::string> export_pair(const TestCase &tc, const std::string &dir);
// A human-readable view: name, shape, category, data line, seed, time limit; for small cases (every matrix at most
// 16×16) the matrices of the checked call (and the expected C when given), aligned in columns; for larger ones
// per-matrix statistics of the checked inputs (min, max, mean, root-mean-square, count of zeros).
// `dim_names`: the suite's problem's names of its dims (problem.hpp), for another problem's case.
std::string show_case(const TestCase &tc, const std::vector<std::string> &dim_names = {});
// Validates one .case file or every .case file below a folder (path relative to nothing: as given). Returns one
// "file:line: why" string per problem, empty when all is valid; includes expected-C mismatches and never_run_files.
std::vector<std::string> validate_path(const std::string &path, const std::string &suite_root);
// "file:0: never runs: why" for each file at or below `path` that a problem setter meant as a case and no run
// takes: a *.case file below the suite root outside every category folder (categories.hpp; only --case or
// --category picks it), a name the loader passes over ("x.CASE", a file named ".case"), a link to a folder of
// cases (the loader does not follow links to folders). Files outside the suite root are not placed in it.
std::vector<std::string> never_run_files(const std::string &path, const std::string &suite_root);
} // namespace gemm
