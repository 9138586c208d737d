// The page's read-only views, rendered here as HTML fragments: the testcases, the history
// of attempts and the leaderboard. Every string in them that came from a testcase file, a
// solution's name or the history database is escaped (html_text.hpp): the browser shows it
// as text whatever it holds.
#pragma once

#include <string>

namespace gemm::serve {

// Every case of the suite at `testcases_dir`: name, category, shape, time limit and what it
// is for (its file's first comment lines); then the files that are not valid, with why.
std::string testcases_html(const std::string &testcases_dir);

// The attempts in the history file `history_path` (of one solution when `solution` is not
// empty), newest first, each with a box to pick it for a comparison.
std::string history_html(const std::string &history_path, const std::string &solution);

// The best ranked attempt of every solution, one board per GPU model; a board of judge
// runs too, for the attempts never ranked.
std::string leaderboard_html(const std::string &history_path);

} // namespace gemm::serve
