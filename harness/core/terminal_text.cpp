#include "core/terminal_text.hpp"

#include <cstdint>
#include <cstdio>

namespace gemm {

namespace {

std::string byte_escape(unsigned char byte) {
    char text[8];
    std::snprintf(text, sizeof text, "\\x%02x", byte);
    return text;
}

std::string code_point_escape(std::uint32_t code_point) {
    char text[16];
    std::snprintf(text, sizeof text, "\\u{%04X}", static_cast<unsigned>(code_point));
    return text;
}

// Characters that print as nothing or reorder the text around them (the "Trojan source"
// bidirectional controls among them).
bool invisible(std::uint32_t cp) {
    return (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x2069) ||
           cp == 0xFEFF || cp == 0x00AD;
}

// The length of the well-formed UTF-8 sequence at `at` and its code point; 0 when the
// bytes there are not one (overlong forms, surrogates and values past U+10FFFF included).
std::size_t decode_utf8(std::string_view text, std::size_t at, std::uint32_t &cp) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
    const unsigned char lead = byte(0);
    std::size_t length = 0;
    std::uint32_t minimum = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2, cp = lead & 0x1F, minimum = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3, cp = lead & 0x0F, minimum = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4, cp = lead & 0x07, minimum = 0x10000;
    } else {
        return 0;
    }
    if (at + length > text.size()) return 0;
    for (std::size_t i = 1; i < length; ++i) {
        if ((byte(i) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i) & 0x3F);
    }
    if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return length;
}

} // namespace

std::string escape_for_terminal(std::string_view text, bool keep_newlines) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            const bool control = c < 0x20 || c == 0x7F;
            const bool allowed = c == '\t' || (c == '\n' && keep_newlines);
            out += control && !allowed ? byte_escape(c) : std::string(1, static_cast<char>(c));
            ++i;
            continue;
        }
        std::uint32_t cp = 0;
        const std::size_t length = decode_utf8(text, i, cp);
        if (length == 0) {
            out += byte_escape(c);
            ++i;
        } else if (cp <= 0x9F) { // C1 controls: some terminals act on them like ESC sequences
            for (std::size_t k = 0; k < length; ++k) out += byte_escape(static_cast<unsigned char>(text[i + k]));
            i += length;
        } else if (invisible(cp)) {
            out += code_point_escape(cp);
            i += length;
        } else {
            out.append(text, i, length);
            i += length;
        }
    }
    return out;
}

} // namespace gemm
