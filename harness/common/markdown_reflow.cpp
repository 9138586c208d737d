#include "common/markdown_reflow.hpp"
#include "common/terminal_text.hpp"

#include <cctype>
#include <sstream>

namespace gemm {

namespace {

bool starts_list_item(const std::string &line) {
    if (line.rfind("- ", 0) == 0 || line.rfind("* ", 0) == 0) return true;
    std::size_t digits = 0;
    while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
    return digits > 0 && line.compare(digits, 2, ". ") == 0;
}

std::string trimmed(const std::string &line) {
    const auto first = line.find_first_not_of(' ');
    return first == std::string::npos ? "" : line.substr(first);
}

// The lines of one paragraph or list item, joined, then wrapped; a list item's later lines
// are indented past its marker.
class Paragraph {
  public:
    explicit Paragraph(std::string &out, std::size_t width) : out_(out), width_(width) {}
    bool open() const { return !words_.empty(); }
    void start(const std::string &line, std::size_t hanging) {
        flush();
        words_ = line;
        hanging_ = hanging;
    }
    void add(const std::string &line) { words_ += " " + trimmed(line); }
    void flush() {
        if (words_.empty()) return;
        out_ += wrap_to_width(words_, width_, hanging_) + "\n";
        words_.clear();
    }

  private:
    std::string &out_;
    std::size_t width_, hanging_ = 0;
    std::string words_;
};

} // namespace

std::string reflowed_markdown(const std::string &text, std::size_t width) {
    std::string out;
    Paragraph paragraph(out, width);
    bool in_code = false;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        const bool fence = trimmed(line).rfind("```", 0) == 0;
        if (fence || in_code) {
            paragraph.flush();
            out += wrap_to_width(line, width, 2) + "\n";
            if (fence) in_code = !in_code;
        } else if (trimmed(line).empty()) {
            paragraph.flush();
            out += "\n";
        } else if (line[0] == '#' || line[0] == '|' || line[0] == '>') {
            paragraph.flush();
            out += wrap_to_width(line, width, 2) + "\n";
        } else if (starts_list_item(line)) {
            paragraph.start(line, line.find(' ') + 1);
        } else if (paragraph.open()) {
            paragraph.add(line);
        } else {
            paragraph.start(line, 0);
        }
    }
    paragraph.flush();
    return out;
}

} // namespace gemm
