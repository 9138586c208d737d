// The problems the page offers, as JSON: the list for its picker and one problem's page (its
// statement and starter), and the check of a name a submission gives. Everything comes from
// the descriptors testcases/problem_catalog.hpp reads (docs/problems.md); the names are the
// judge's --problem names, resolved against the same folder the judge resolves them in.
#pragma once

#include "testcases/problem.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <variant>

namespace gemm::serve {

// Every problem below `testcases_root` in `./judge problems`' order: the default one first,
// then by name, which begins with the site's folder (so by site). Each has "name", "site",
// "title", "signature", "dtypes", "default", "judged", and "not_yet_judged" (what this judge
// lacks for it, empty when it judges it). Throws ProblemError for a bad descriptor.
nlohmann::json problems_json(const std::string &testcases_root);

// The problem named `name`, or the judge's own words for a name no problem has ("NAME: no
// problem has this name; did you mean …?"). Only names of the list are looked up: a name is
// never made into a path.
std::variant<ProblemDescriptor, std::string> named_problem(const std::string &testcases_root, const std::string &name);

// One problem's entry of the list with its "url", "baseline", and the text of its
// "statement" (statement.md) and "starter" (starter.cu), each null where its folder has none.
nlohmann::json problem_page_json(const ProblemDescriptor &problem);

} // namespace gemm::serve
