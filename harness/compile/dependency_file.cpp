#include "compile/dependency_file.hpp"

#include <cctype>

namespace gemm {

namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The position just past the rule's `:`, the first one followed by a space or the end
// (a target such as "o:ut.so" may hold a colon of its own); npos when there is none.
std::size_t after_target(const std::string &text) {
    for (std::size_t i = 0; i < text.size(); ++i)
        if (text[i] == ':' && (i + 1 == text.size() || is_space(text[i + 1]))) return i + 1;
    return std::string::npos;
}

} // namespace

std::vector<std::string> dependency_file_inputs(const std::string &text) {
    std::vector<std::string> inputs;
    std::size_t i = after_target(text);
    if (i == std::string::npos) return inputs;
    std::string word;
    auto finish_word = [&] {
        if (!word.empty()) inputs.push_back(word);
        word.clear();
    };
    for (; i < text.size(); ++i) {
        const char c = text[i];
        const char next = i + 1 < text.size() ? text[i + 1] : '\0';
        if (c == '\\' && next == '\n') { // a continued line
            finish_word();
            ++i;
        } else if (c == '\\' && next == '\r' && i + 2 < text.size() && text[i + 2] == '\n') {
            finish_word();
            i += 2;
        } else if (c == '\\' && (next == ' ' || next == '#')) {
            word += next;
            ++i;
        } else if (c == '$' && next == '$') {
            word += '$';
            ++i;
        } else if (c == '\n') {
            break; // the rule ends; what follows (phony targets of -MP) names nothing new
        } else if (is_space(c)) {
            finish_word();
        } else {
            word += c;
        }
    }
    finish_word();
    return inputs;
}

} // namespace gemm
