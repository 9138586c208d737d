// A problem's statement.md shown in a terminal (./judge problems NAME): its paragraphs and
// list items re-flowed to the console's width, as a Markdown reader would show them, rather
// than each source line wrapped where it stands; code blocks, headings and tables kept line
// by line (a line too wide for the console wrapped with an indent).
#pragma once

#include <cstddef>
#include <string>

namespace gemm {

std::string reflowed_markdown(const std::string &text, std::size_t width);

} // namespace gemm
