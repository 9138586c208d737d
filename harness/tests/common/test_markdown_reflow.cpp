// A statement.md re-flowed for the console (common/markdown_reflow.hpp): paragraphs and list
// items joined and wrapped at the width, code blocks and headings kept line by line.
#include "common/markdown_reflow.hpp"
#include "common/terminal_text.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

using namespace gemm;

TEST_CASE("a statement's paragraphs and list items are re-flowed to the width, its code kept as written") {
    const std::string statement = "# Title of a problem\n"
                                  "\n"
                                  "A paragraph written with short lines,\n"
                                  "which a reader joins,\n"
                                  "and wraps where the console ends.\n"
                                  "\n"
                                  "- an item that goes on\n"
                                  "  past its first line\n"
                                  "- another\n"
                                  "\n"
                                  "```cuda\n"
                                  "extern \"C\" void solve(const float *A,\n"
                                  "                      float *C);\n"
                                  "```\n";
    const std::string out = reflowed_markdown(statement, 40);
    CHECK(out == "# Title of a problem\n"
                 "\n"
                 "A paragraph written with short lines,\n"
                 "which a reader joins, and wraps where\n"
                 "the console ends.\n"
                 "\n"
                 "- an item that goes on past its first\n"
                 "  line\n"
                 "- another\n"
                 "\n"
                 "```cuda\n"
                 "extern \"C\" void solve(const float *A,\n"
                 "                      float *C);\n"
                 "```\n");
}

TEST_CASE("every shipped statement re-flows to lines of at most 100 columns") {
    namespace fs = std::filesystem;
    int statements = 0;
    for (const auto &entry : fs::recursive_directory_iterator(std::string(GEMM_SOURCE_DIR) + "/testcases")) {
        if (entry.path().filename() != "statement.md") continue;
        ++statements;
        std::ifstream file(entry.path());
        const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
        std::istringstream lines(reflowed_markdown(text, 100));
        for (std::string line; std::getline(lines, line);) {
            CAPTURE(entry.path().string());
            CAPTURE(line);
            // A word wider than the console (a source's URL) stays whole, on its own line.
            const bool one_word = line.find(' ', line.find_first_not_of(' ')) == std::string::npos;
            CHECK((display_width(line) <= 100 || one_word));
        }
    }
    CHECK(statements >= 38);
}
