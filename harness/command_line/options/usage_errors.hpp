// A bad command line said the GNU way: one or two lines on stderr that start with
// "judge: ", name the option or argument as it was typed, offer the nearest valid name for
// a slip of the keyboard, and say where the options are listed. CLI11's own texts ("The
// following argument was not expected: …", "A subcommand is required") are rewritten from
// what the parser holds after the error: the command it was in, what was left over, which
// option lacks what it needs.
#pragma once

#include "common/nearest_name.hpp"

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

// The commands of `app` ("rank", "compare", … for the main command; "new", … for case).
std::vector<std::string> command_names(const CLI::App &app);

// The lines for a parse error of `app` (the main command, after parse threw `error`),
// each ending in a newline: "judge: unknown option --verbos; did you mean --verbose?" and
// "Run './judge --help' for the options."
std::string describe_parse_error(const CLI::ParseError &error, const CLI::App &app);

// "judge: case: unknown command 'nwe'; did you mean 'new'?", or the commands listed.
std::string unknown_command(const CLI::App &command, const std::string &word);

// The second line of a usage error in `command`: where its options are listed.
std::string help_hint(const CLI::App &command);

// `word`, given where a solution goes, read as a mistyped command ("rnak"): it is no file and
// does not end in .cu. The message, or none when `word` may well be meant as a file.
std::optional<std::string> misread_command(const std::string &word, const CLI::App &app);

} // namespace gemm
