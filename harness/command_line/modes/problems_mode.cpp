#include "command_line/modes/problems_mode.hpp"
#include "common/errors.hpp"
#include "common/markdown_reflow.hpp"
#include "common/terminal_text.hpp"
#include "common/text.hpp"
#include "testcases/problem_catalog.hpp"

#include <filesystem>
#include <iostream>

namespace gemm {

namespace {

constexpr std::size_t name_column = 40;

std::string status_of(const ProblemDescriptor &p) {
    const auto missing = p.not_yet_judged();
    if (missing.empty()) return p.is_default ? "judged (the default)" : "judged";
    std::string text = "not yet: ";
    for (std::size_t i = 0; i < missing.size(); ++i) text += (i ? ", " : "") + missing[i];
    return text;
}

} // namespace

int list_problems(const std::string &testcases_root) {
    const auto problems = problems_below(testcases_root);
    int judged = 0;
    for (const auto &p : problems) {
        judged += p.not_yet_judged().empty();
        std::string head = p.name;
        head += std::string(head.size() < name_column ? name_column - head.size() : 1, ' ');
        head += p.site + ", " + p.dtypes() + "; " + status_of(p);
        std::cout << (display_width(head) <= console_width ? head : wrap_to_width(head, console_width, 4)) << "\n"
                  << wrap_to_width("    " + p.signature(), console_width, 8) << "\n";
    }
    std::cout << problems.size() << " problems, " << judged
              << " judged by this judge; ./judge problems NAME shows one's statement and starter\n";
    return 0;
}

int show_problem(const std::string &testcases_root, const std::string &name) {
    const auto folder = problem_folder(testcases_root, name);
    if (!folder) throw UsageError("problems " + unknown_problem(testcases_root, name));
    const ProblemDescriptor &p = suite_problem(*folder);
    std::cout << wrap_to_width(p.name + ": " + p.title + " (" + p.site + ")", console_width, 2) << "\n";
    if (!p.url.empty()) std::cout << wrap_to_width(p.url, console_width) << "\n";
    std::cout << wrap_to_width("dtypes: " + p.dtypes() + "; " + status_of(p), console_width, 2) << "\n"
              << wrap_to_width("baseline: " + p.baseline, console_width, 2) << "\n"
              << wrap_to_width(p.signature(), console_width, 4) << "\n";
    namespace fs = std::filesystem;
    for (const char *file : {"statement.md", "starter.cu"}) {
        const auto path = fs::path(*folder) / file;
        if (const auto text = read_text_file(path.string())) {
            std::cout << "\n" << path.string() << ":\n";
            if (std::string(file) == "statement.md") {
                std::cout << reflowed_markdown(escape_for_terminal(*text, true), console_width);
                continue;
            }
            std::string line;
            for (char c : *text) {
                if (c != '\n') {
                    line += c;
                    continue;
                }
                std::cout << wrap_to_width(escape_for_terminal(line), console_width, 2) << "\n";
                line.clear();
            }
            if (!line.empty()) std::cout << wrap_to_width(escape_for_terminal(line), console_width, 2) << "\n";
        }
    }
    return 0;
}

} // namespace gemm
