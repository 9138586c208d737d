// Text from outside the server — a solution's output, nvcc's message, a testcase's name or
// comment, a file name — placed in the page as text, never as markup.
#pragma once

#include <string>

namespace gemm::serve {

// `&`, `<`, `>`, `"` and `'` as character references: safe inside an element and inside a
// quoted attribute.
std::string html_escaped(const std::string &text);

} // namespace gemm::serve
