// The testcase categories, in one table: a case's category is the folder it sits in under
// the suite (testcases/sample/…), and everything the judge does differently for a category
// is read from its row here — which run by default, which are timed with the whole budget,
// which get cuBLAS beside them, which are ranked, which shrink and which show their data.
#pragma once

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

} // namespace gemm
