// Testcase files: parse, validate and load a suite. The format is specified in
// testcases/README.md; every rejection names `file:line: what is wrong`.
#pragma once

#include "common/epilogue.hpp"
#include "common/errors.hpp"
#include "common/product_layout.hpp"
#include "common/rng.hpp"
#include "common/shape.hpp"
#include "measurement/stats.hpp"
#include "verification/reference.hpp"
#include "verification/site_allclose.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemm {

struct TestCase {
    std::string name;        // path below the suite root without ".case", e.g. "secret/07-primes"
    std::string category;    // first folder of the name: sample, secret, perf
    std::string path;        // the file it came from, for messages
    int M = 0, N = 0, K = 0; // one product's; a batch has layout.batch of them
    ProductLayout layout;    // how the solution's operands are stored (the problem's, for this shape)
    // Data of a generated case; for every case also the timed calls' inputs.
    GeneratorSpec generator;
    bool has_explicit_data = false;
    std::vector<float> A, B;               // explicit data, row-major
    std::vector<double> expected_C;        // optional expected result of an explicit case
    std::vector<int> expected_C_row_lines; // the file line of each row of C, for messages
    double time_limit_s = 0;               // per solve() call; 0 means default_time_limit_s
    // The problem's own dimensions, as the `shape` line gives them (problem.hpp): M, N, K for
    // the default problem; empty for a case made in code, which means M, N, K.
    std::vector<long long> dims;
    std::map<std::string, double> scalars;       // `scalar NAME VALUE` lines, by role, and the defaults
    Epilogue epilogue;                           // the problem's, with this case's scalars
    bool passes_nonzeros = false;                // the entry point is told A's count of non-zeros (role nnz)
    std::optional<SiteTolerance> site_tolerance; // the problem's site's allclose, reported beside the verdict
};

// A slow but correct kernel (naive, ~1 TFLOP/s) must never get TLE: one second plus
// the time at 100 GFLOP/s, so a hang on a small case is still found within seconds.
double default_time_limit_s(int M, int N, int K, long long batch = 1);
double time_limit_s(const TestCase &tc);

inline Shape shape_of(const TestCase &tc) { return {tc.M, tc.N, tc.K, tc.layout.batch}; }

// The case's size as its problem states it: "17×33×5" for the default problem; for another,
// its own dims and, where they differ, the product they make: "2×3×4×5 (n×m×k×l), product
// 6×4×5" (`dim_names`: the problem's names of its dims).
std::string case_size_text(const TestCase &tc, const std::vector<std::string> &dim_names);

struct CaseInputs {
    std::vector<float> A, B;
};

// The inputs of one input set: an explicit case's own data for the checked set, the
// generator's otherwise (explicit cases time on generated data, seeded by their seed).
CaseInputs case_inputs(const TestCase &tc, int input_set);

// A bad testcase file: `file:line: why`, escaped for the terminal. `line` is 0 when the
// problem is not about one line, one past the last line when it is about the case as a whole.
struct TestcaseError : std::runtime_error {
    explicit TestcaseError(const std::string &message, int line = 0) : std::runtime_error(message), line(line) {}
    int line;
};

// Parses one file's text (a leading UTF-8 byte order mark is ignored). `name` is what the
// suite calls it; `path` appears in errors.
TestCase parse_testcase(const std::string &text, const std::string &path, const std::string &name);
// The same for a case of `problem`, whose `shape` line gives that problem's dims.
struct ProblemDescriptor;
TestCase parse_testcase(const std::string &text, const std::string &path, const std::string &name,
                        const ProblemDescriptor &problem);

// One line of a case assembled from command-line options, and the option it came from as
// the user wrote it ("--data 'uniform 1 1'").
struct OptionLine {
    std::string option;
    std::string line;
};

// Parses the lines as one case file; a problem throws UsageError naming the option of
// its line (never a file the user did not write), or `whole_case_options` when it is about the case as a whole (a
// result that could overflow, a shape too large to judge).
// With `problem`, the shape line is in that problem's dims.
TestCase parse_option_case(const std::vector<OptionLine> &lines, const std::string &name,
                           const std::string &whole_case_options, const ProblemDescriptor *problem = nullptr);

// Reads and parses one file; its name is taken relative to `suite_root`. A path that is not
// a regular file (a dangling symbolic link, a loop of them, a folder, a FIFO) and an expected
// C that disagrees with A·B (expected_output_mismatch) are TestcaseErrors too.
TestCase load_testcase(const std::string &path, const std::string &suite_root);

// Does a --case selector pick this testcase? Exact name, a category ("perf"), or a tail
// of the name after any `/`: its last part ("04-primes"), at any depth of folders.
bool case_selected(const std::string &case_name, const std::string &selector);

// Why --case `selectors` pick none of `case_names`: the first selector that picks none,
// with the nearest one that would pick a case ("--case 04-prims: no testcase has this name;
// did you mean 04-primes?"); empty when each selector picks one.
std::string unmatched_case_selector(const std::vector<std::string> &selectors,
                                    const std::vector<std::string> &case_names);

// Every path named *.case below a folder, sorted by path: files, and what only has the name
// (a folder, a dangling link, a FIFO), so that loading it says what is wrong.
std::vector<std::string> case_files_below(const std::string &folder);

struct Suite {
    std::vector<TestCase> cases;       // sample, secret, perf, rank, huge, then other categories, each sorted by name
    std::vector<std::string> problems; // one `file:line: why` per bad file (or a missing or empty folder)
};

// Every *.case file below the root; a bad file is a problem and the good ones still load,
// so a listing or a `case show` of a good case is not stopped by another file.
Suite load_suite_leniently(const std::string &suite_root);

// The whole suite, or TestcaseError listing every bad file (one `file:line: why` per
// line) so a setter fixes them all in one pass: the judge never runs an invalid suite.
std::vector<TestCase> load_suite(const std::string &suite_root);

// A testcase's own expected C must agree with A·B; a mismatch is the setter's error
// (`file:line: why`), never a solution's WA.
std::optional<std::string> expected_output_mismatch(const TestCase &tc, const Reference &ref);

} // namespace gemm
