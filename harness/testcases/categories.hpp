// The testcase categories, in one table: a case's category is the folder it sits in under
// the suite (testcases/sample/…), and everything the judge does differently for a category
// is read from its row here — which run by default, which are timed with the whole budget,
// which get cuBLAS beside them, which are ranked, which shrink and which show their data.
// Beside the table, the rest of what decides which cases run: the named selections, fail
// fast, the GPU's memory and --sanitize's size.
#pragma once

#include "testcases/testcase.hpp"

#include <optional>
#include <string>
#include <vector>

namespace gemm {

struct CategoryTraits {
    const char *name;
    bool runs_by_default; // judged by ./judge FILE without --category
    bool measured;        // timed with the whole budget, not the short one of a correctness case
    bool against_cublas;  // cuBLAS timed beside it under --baseline perf (the default)
    bool ranked;          // in the ranked set of rank and compare
    bool shrinks;         // a failure may be shrunk to its smallest failing shape
    bool public_data;     // a failure shows the case's data, as a public sample does
    const char *purpose;  // what the category is for, for --list and the docs
};

// Every category, in the order a learner reads them: the tiny public cases, the edge
// shapes, the big ones.
const std::vector<CategoryTraits> &categories();

// The row of `name`; a case outside every category folder (named by --case) gets the row of
// no category: not timed with the whole budget, no cuBLAS, not ranked, shrinks, data hidden.
const CategoryTraits &category_traits(const std::string &name);

std::vector<std::string> category_names();         // every category, in order
std::vector<std::string> default_category_names(); // those that run without --category

// Selections of the suite by name (--selection NAME), for callers that must not name a
// category (./judge serve's quick run): "default", what runs without --category, and
// "quick", the public samples alone.
struct RunSelection {
    const char *name;
    std::vector<std::string> categories;
    const char *purpose; // for --help
};
const std::vector<RunSelection> &run_selections();
const RunSelection *find_run_selection(const std::string &name); // nullptr for an unknown name

// Beside the categories, what else decides whether a selected case runs.
// Fail fast: after this many cases end in RE or TLE the rest are not run, unless
// --keep-going. A crash or a hang costs a runner's start or a time limit per case; a
// competitive-programming judge stops at the first failures too (DOMjudge's lazy
// evaluation), and a WA, which is fast and whose map helps, never stops a run.
constexpr int fail_fast_limit = 3;
bool fail_fast_stops(int crashed_or_hung, bool keep_going);
// A case that needs more than 90% of the GPU's memory is skipped: why, in words; nullopt
// when it fits.
std::optional<std::string> too_big_for_gpu(const TestCase &tc, long long gpu_memory_bytes);
// --sanitize runs the small cases alone (M·N·K ≤ 2^22): under its tools a call is tens of
// times slower.
bool small_enough_to_sanitize(const TestCase &tc);

} // namespace gemm
