// Small text helpers shared by every part of the judge: whole files in, printf-style text
// out. Terminal columns, escaping and UTF-8: common/terminal_text.hpp.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace gemm {

// The file's bytes, or nothing when it cannot be opened or read.
std::optional<std::string> read_text_file(const std::string &path);

// The text without a leading UTF-8 byte order mark, which some editors write first and
// which would otherwise stick to the first word ("\xEF\xBB\xBFshape").
std::string without_utf8_bom(std::string text);

// printf into a std::string (up to 511 bytes: table rows and figures, not data).
std::string formatted(const char *format, ...) __attribute__((format(printf, 1, 2)));

} // namespace gemm
