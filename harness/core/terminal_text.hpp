// Text the judge does not control (file names, words from a testcase file, .in files) made
// safe to print: a control byte or an invisible character would otherwise reach the
// terminal as a command (an escape sequence) or hide what is wrong (a byte order mark).
#pragma once

#include <string>
#include <string_view>

namespace gemm {

// Control bytes (C0, DEL, C1) and bytes that are not UTF-8 become `\xHH`; characters that
// print as nothing or reorder text (zero-width spaces, bidirectional overrides, U+FEFF)
// become `\u{XXXX}`. Printable UTF-8 such as "×" is kept. A newline is kept only when
// `keep_newlines`, for messages of several lines.
std::string escape_for_terminal(std::string_view text, bool keep_newlines = false);

} // namespace gemm
