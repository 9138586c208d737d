// The name a slip of the keyboard was probably meant to be, for every name the judge is
// given: an option, a command, a solution file, a testcase, the solve() a library defines.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemm {

// Edits that turn one into the other: a letter inserted, deleted or replaced, or two
// neighbours swapped ("--verbso" is one edit from "--verbose").
std::size_t edit_distance(std::string_view a, std::string_view b);

// The name `typed` was probably meant to be: the nearest by edit distance when at most a
// third of its letters (at least one) differ, else the only name it begins; none otherwise.
std::optional<std::string> nearest_name(const std::string &typed, const std::vector<std::string> &names);

} // namespace gemm
