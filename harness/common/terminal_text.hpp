// Text the judge does not control (file names, words from a testcase file, .in files,
// compiler and solution output) made safe to print, to store and to lay out: a control byte
// or an invisible character would otherwise reach the terminal as a command (an escape
// sequence) or hide what is wrong (a byte order mark), a byte that is not UTF-8 would break
// a JSON or XML report, and a wide character would shift a table's columns. The Unicode
// data (what is invisible, how wide a character is) is utf8proc's.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gemm {

// The columns every line the judge prints fits in: a terminal's 80 would cut the table's
// name, shape and time columns; more than 100 wraps on a laptop's half-screen terminal.
constexpr std::size_t console_width = 100;

// Control bytes (C0, DEL, C1) and bytes that are not UTF-8 become `\xHH`; characters that
// print as nothing or reorder text (format characters such as zero-width spaces,
// bidirectional overrides and U+FEFF; line and paragraph separators; noncharacters) become
// `\u{XXXX}`. Printable UTF-8 such as "×" is kept. A newline is kept only when
// `keep_newlines`, for messages of several lines.
std::string escape_for_terminal(std::string_view text, bool keep_newlines = false);

// The text as well-formed UTF-8: each byte that is not part of a well-formed sequence
// becomes U+FFFD; everything else, control characters included, is kept (JSON escapes them).
std::string valid_utf8(std::string_view text);

// The text for an XML 1.0 document, which admits no control character but tab, newline and
// carriage return, and no noncharacter U+FFFE/U+FFFF: escape_for_terminal keeping newlines.
std::string xml_safe(std::string_view text);

// Terminal columns of UTF-8 text: "×" is two bytes but one column, a CJK character two, a
// combining accent none; a byte that is not UTF-8 counts one.
std::size_t display_width(std::string_view text);

// The text followed by spaces up to `width` columns, and at least `min_gap` spaces.
std::string pad_to_width(std::string_view text, std::size_t width, std::size_t min_gap = 1);

// The longest prefix of whole characters that fits in `width` columns.
std::string truncate_to_width(std::string_view text, std::size_t width);

// Each name cut to at most `width` columns with "…" where it is longer, so that the cut
// names stay as distinct as the names were: the end is cut first ("secret/29-all-odd-al…"),
// and where two cut names would read the same, their middles instead, keeping the ends that
// tell them apart ("perf/rank-cube…-8192" and "perf/rank-cube…-2048").
std::vector<std::string> abbreviate_uniquely(const std::vector<std::string> &names, std::size_t width);

// The text broken at spaces into lines of at most `width` columns (a word longer than that
// stays whole on its own line). Its first line starts at column `first_column` (the caller
// wrote what comes before it; by default `indent`), every later line with `indent` spaces; a
// line of the text that starts with spaces keeps them, and so do its continuation lines.
// Newlines are kept.
std::string wrap_to_width(std::string_view text, std::size_t width, std::size_t indent = 0,
                          std::optional<std::size_t> first_column = std::nullopt);

} // namespace gemm
