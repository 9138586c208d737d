// Testcase files: parse, validate and load a suite. The format is specified in
// testcases/README.md; every rejection names `file:line: what is wrong`.
#pragma once

#include "core/rng.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace gemm {

struct TestCase {
    std::string name;     // path below the suite root without ".case", e.g. "secret/07-primes"
    std::string category; // first folder of the name: sample, secret, perf
    std::string path;     // the file it came from, for messages
    int M = 0, N = 0, K = 0;
    // Data of a generated case; for every case also the timed calls' inputs.
    GeneratorSpec generator;
    bool has_explicit_data = false;
    std::vector<float> A, B;               // explicit data, row-major
    std::vector<double> expected_C;        // optional expected result of an explicit case
    std::vector<int> expected_C_row_lines; // the file line of each row of C, for messages
    double time_limit_s = 0;               // per solve() call; 0 means default_time_limit_s
};

// A slow but correct kernel (naive, ~1 TFLOP/s) must never get TLE: one second plus
// the time at 100 GFLOP/s, so a hang on a small case is still found within seconds.
double default_time_limit_s(int M, int N, int K);
double time_limit_s(const TestCase &tc);

double flop_count(int M, int N, int K);

struct CaseInputs {
    std::vector<float> A, B;
};

// The inputs of one input set: an explicit case's own data for the checked set, the
// generator's otherwise (explicit cases time on generated data, seeded by their seed).
CaseInputs case_inputs(const TestCase &tc, int input_set);

struct TestcaseError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Parses one file's text. `name` is what the suite calls it; `path` appears in errors.
TestCase parse_testcase(const std::string &text, const std::string &path, const std::string &name);

// Reads and parses one file; its name is taken relative to `suite_root`.
TestCase load_testcase(const std::string &path, const std::string &suite_root);

// Does a --case selector pick this testcase? Exact name, a category ("perf"), or the
// name without its category ("07-primes").
bool case_selected(const std::string &case_name, const std::string &selector);

// Every *.case file below a folder, sorted by path.
std::vector<std::string> case_files_below(const std::string &folder);

// Every *.case file below the root: sample, secret, perf, rank, huge, then other categories, each
// sorted by name. Throws TestcaseError listing every
// bad file (one `file:line: why` per line) so a setter fixes them all in one pass.
std::vector<TestCase> load_suite(const std::string &suite_root);

} // namespace gemm
