#include "common/terminal_text.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utf8proc.h>

namespace gemm {

namespace {

std::string byte_escape(unsigned char byte) {
    char text[8];
    std::snprintf(text, sizeof text, "\\x%02x", byte);
    return text;
}

std::string code_point_escape(std::int32_t code_point) {
    char text[16];
    std::snprintf(text, sizeof text, "\\u{%04X}", static_cast<unsigned>(code_point));
    return text;
}

// One step through UTF-8 text: the code point at `at` and its length in bytes, or a length
// of 1 and no code point where the bytes there are not a well-formed sequence (overlong
// forms, surrogates and values past U+10FFFF included).
struct Step {
    std::size_t length;
    std::int32_t code_point; // -1 for a byte that is not UTF-8
};

Step step_at(std::string_view text, std::size_t at) {
    utf8proc_int32_t cp = -1;
    const auto length = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t *>(text.data() + at),
                                         static_cast<utf8proc_ssize_t>(text.size() - at), &cp);
    if (length <= 0) return {1, -1};
    return {static_cast<std::size_t>(length), cp};
}

bool noncharacter(std::int32_t cp) { return (cp >= 0xFDD0 && cp <= 0xFDEF) || (cp & 0xFFFE) == 0xFFFE; }

// Characters that print as nothing, reorder the text around them (the "Trojan source"
// bidirectional controls are format characters) or break a line where no newline is.
bool invisible(std::int32_t cp) {
    const auto category = utf8proc_category(cp);
    return category == UTF8PROC_CATEGORY_CF || category == UTF8PROC_CATEGORY_ZL || category == UTF8PROC_CATEGORY_ZP ||
           noncharacter(cp);
}

// The length in bytes of the longest prefix of whole characters that fits in `columns`.
std::size_t fitting_prefix(std::string_view text, std::size_t columns) {
    std::size_t used = 0, at = 0;
    while (at < text.size()) {
        const Step s = step_at(text, at);
        const std::size_t width = s.code_point < 0 ? 1 : std::max(0, utf8proc_charwidth(s.code_point));
        if (used + width > columns) break;
        used += width;
        at += s.length;
    }
    return at;
}

} // namespace

std::string escape_for_terminal(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const Step s = step_at(text, i);
        if (s.code_point < 0) {
            out += byte_escape(c);
        } else if (s.code_point < 0x80) {
            const bool control = c < 0x20 || c == 0x7F;
            const bool allowed = c == '\t' || (c == '\n' && keep_newlines);
            out += control && !allowed ? byte_escape(c) : std::string(1, static_cast<char>(c));
        } else if (s.code_point <= 0x9F) { // C1 controls: some terminals act on them like ESC sequences
            for (std::size_t k = 0; k < s.length; ++k) out += byte_escape(static_cast<unsigned char>(text[i + k]));
        } else if (invisible(s.code_point)) {
            out += code_point_escape(s.code_point);
        } else {
            out.append(text.substr(i, s.length));
        }
        i += s.length;
    }
    return out;
}

std::string valid_utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const Step s = step_at(text, i);
        if (s.code_point < 0)
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
        else
            out.append(text.substr(i, s.length));
        i += s.length;
    }
    return out;
}

std::string xml_safe(std::string_view text) { return escape_for_terminal(text, true); }

std::size_t display_width(std::string_view text) {
    std::size_t columns = 0;
    for (std::size_t i = 0; i < text.size();) {
        const Step s = step_at(text, i);
        columns += s.code_point < 0 ? 1 : std::max(0, utf8proc_charwidth(s.code_point));
        i += s.length;
    }
    return columns;
}

std::string pad_to_width(std::string_view text, std::size_t width, std::size_t min_gap) {
    const std::size_t columns = display_width(text);
    std::string out(text);
    out.append(width > columns + min_gap ? width - columns : min_gap, ' ');
    return out;
}

std::string truncate_to_width(std::string_view text, std::size_t width) {
    return std::string(text.substr(0, fitting_prefix(text, width)));
}

namespace {

// One line of text (no newline) starting at column `first_column`, broken at spaces; its
// leading spaces are kept, and its continuation lines are indented by `indent` plus them.
std::string wrap_line(std::string_view line, std::size_t width, std::size_t indent, std::size_t first_column) {
    const std::size_t leading = std::min(line.find_first_not_of(' '), line.size());
    std::string out(leading, ' ');
    std::size_t column = first_column + leading;
    bool line_has_word = false;
    for (std::size_t at = leading; at < line.size();) {
        const std::size_t end = std::min(line.find(' ', at), line.size());
        const std::string_view word = line.substr(at, end - at);
        if (!word.empty()) {
            const std::size_t word_width = display_width(word);
            if (line_has_word && column + 1 + word_width > width) {
                out += "\n" + std::string(indent + leading, ' ');
                column = indent + leading;
                line_has_word = false;
            }
            if (line_has_word) {
                out += ' ';
                ++column;
            }
            out += word;
            column += word_width;
            line_has_word = true;
        }
        at = end + 1;
    }
    return out;
}

} // namespace

std::string wrap_to_width(std::string_view text, std::size_t width, std::size_t indent,
                          std::optional<std::size_t> first_column) {
    std::string out;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line = text.substr(at, end - at);
        if (at > 0) out += "\n" + std::string(line.empty() ? 0 : indent, ' ');
        out += wrap_line(line, width, indent, at == 0 ? first_column.value_or(indent) : indent);
        at = end + 1;
    }
    return out;
}

} // namespace gemm

namespace gemm {

namespace {

// The longest suffix of whole characters that fits in `width` columns.
std::string_view fitting_suffix(std::string_view text, std::size_t width) {
    std::size_t start = text.size();
    while (start > 0) {
        std::size_t previous = start - 1;
        while (previous > 0 && (static_cast<unsigned char>(text[previous]) & 0xC0) == 0x80) --previous;
        if (display_width(text.substr(previous)) > width) break;
        start = previous;
    }
    return text.substr(start);
}

// `name` in `width` columns, keeping `tail` columns of its end after the "…".
std::string cut(const std::string &name, std::size_t width, std::size_t tail) {
    if (display_width(name) <= width) return name;
    const std::size_t room = width > 1 ? width - 1 : 0; // "…" is one column
    const std::size_t kept_tail = std::min(tail, room);
    return truncate_to_width(name, room - kept_tail) + "…" + std::string(fitting_suffix(name, kept_tail));
}

} // namespace

std::vector<std::string> abbreviate_uniquely(const std::vector<std::string> &names, std::size_t width) {
    std::vector<std::string> cut_names(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) cut_names[i] = cut(names[i], width, 0);
    // Names that now read alike keep more of their ends, a column at a time, until they differ.
    for (std::size_t tail = 1; tail < width; ++tail) {
        bool clash = false;
        for (std::size_t i = 0; i < names.size(); ++i)
            for (std::size_t j = 0; j < names.size(); ++j)
                if (i != j && names[i] != names[j] && cut_names[i] == cut_names[j]) {
                    cut_names[i] = cut(names[i], width, tail);
                    clash = true;
                }
        if (!clash) break;
    }
    return cut_names;
}

} // namespace gemm
