// Text from outside shown on a terminal: control bytes and invisible characters escaped,
// printable UTF-8 kept; made valid UTF-8 for JSON and XML; laid out by display width.
#include "common/terminal_text.hpp"
#include "common/text.hpp"

#include <doctest/doctest.h>

using namespace gemm;

TEST_CASE("printable text, UTF-8 included, passes unchanged") {
    CHECK(escape_for_terminal("secret/04-primes 127×131×137 ±1e30 a\tb") == "secret/04-primes 127×131×137 ±1e30 a\tb");
}

TEST_CASE("an escape sequence and other control bytes are shown as \\xHH") {
    CHECK(escape_for_terminal("\x1b[2Jshape") == "\\x1b[2Jshape");
    CHECK(escape_for_terminal("a\rb\x07\x7f") == "a\\x0db\\x07\\x7f");
    CHECK(escape_for_terminal("one\ntwo") == "one\\x0atwo");
    CHECK(escape_for_terminal("one\ntwo", true) == "one\ntwo");
}

TEST_CASE("C1 controls and bytes that are not UTF-8 are shown as \\xHH") {
    CHECK(escape_for_terminal("\xc2\x9b"
                              "31m") == "\\xc2\\x9b31m"); // CSI as one C1 character
    CHECK(escape_for_terminal("\xff\xfe") == "\\xff\\xfe");
    CHECK(escape_for_terminal("\xe2\x82") == "\\xe2\\x82");          // cut short
    CHECK(escape_for_terminal("\xc0\xaf") == "\\xc0\\xaf");          // overlong "/"
    CHECK(escape_for_terminal("\xed\xa0\x80") == "\\xed\\xa0\\x80"); // a surrogate
}

TEST_CASE("a byte order mark and bidirectional overrides are made visible") {
    CHECK(escape_for_terminal("\xef\xbb\xbfshape") == "\\u{FEFF}shape");
    CHECK(escape_for_terminal("a\xe2\x80\xae"
                              "b") == "a\\u{202E}b");
    CHECK(escape_for_terminal("a\xe2\x80\x8b"
                              "b") == "a\\u{200B}b");
}

TEST_CASE("escaping twice changes nothing more") {
    const std::string once = escape_for_terminal("\x1b]0;title\x07\xef\xbb\xbf");
    CHECK(escape_for_terminal(once) == once);
}

TEST_CASE("a leading byte order mark is dropped from a file's text, and only a leading one") {
    CHECK(without_utf8_bom("\xef\xbb\xbfshape 1 1 1") == "shape 1 1 1");
    CHECK(without_utf8_bom("shape\xef\xbb\xbf") == "shape\xef\xbb\xbf");
    CHECK(without_utf8_bom("") == "");
}

TEST_CASE("format characters, line separators and noncharacters are made visible too (Unicode data from utf8proc)") {
    CHECK(escape_for_terminal("a\xc2\xad"
                              "b") == "a\\u{00AD}b"); // soft hyphen
    CHECK(escape_for_terminal("a\xe2\x80\xa8"
                              "b") == "a\\u{2028}b"); // line separator
    CHECK(escape_for_terminal("a\xef\xbf\xbf"
                              "b") == "a\\u{FFFF}b"); // a noncharacter
    CHECK(escape_for_terminal("\xe2\x81\xa6rtl\xe2\x81\xa9") == "\\u{2066}rtl\\u{2069}");
    CHECK(escape_for_terminal("日本語 café ü") == "日本語 café ü");
}

TEST_CASE("text made valid UTF-8 keeps every well-formed character and replaces each bad byte with U+FFFD") {
    CHECK(valid_utf8("caf\xe9 au lait") == "caf\xef\xbf\xbd au lait");
    CHECK(valid_utf8("\xff\xfe") == "\xef\xbf\xbd\xef\xbf\xbd");
    CHECK(valid_utf8("\xed\xa0\x80") == "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"); // a surrogate, byte by byte
    CHECK(valid_utf8("127×131 \x1b[1m") == "127×131 \x1b[1m");                   // control bytes are JSON's to escape
    CHECK(valid_utf8("") == "");
}

TEST_CASE("text for XML has no control byte but tab and newline, and is valid UTF-8") {
    const std::string safe = xml_safe("a\x01"
                                      "b\x1b[31m\xe9\xef\xbf\xbe\tc\nd");
    CHECK(safe == "a\\x01b\\x1b[31m\\xe9\\u{FFFE}\tc\nd");
    CHECK(valid_utf8(safe) == safe);
}

TEST_CASE("display width counts terminal columns: one for ×, two for a CJK character, none for a combining accent") {
    CHECK(display_width("secret/04-primes") == 16);
    CHECK(display_width("127×131×137") == 11);
    CHECK(display_width("日本") == 4);
    CHECK(display_width("e\xcc\x81") == 1); // e + combining acute
    CHECK(display_width("\xff") == 1);
    CHECK(display_width("") == 0);
}

TEST_CASE("padding and truncating go by display width, never splitting a character") {
    CHECK(pad_to_width("ü.cu", 8) == "ü.cu    ");
    CHECK(pad_to_width("日本.cu", 8) == "日本.cu ");
    CHECK(pad_to_width("日本.cu", 9) == "日本.cu  ");
    CHECK(pad_to_width("a-long-name.cu", 8) == "a-long-name.cu ");
    CHECK(pad_to_width("abc", 3, 2) == "abc  ");
    CHECK(truncate_to_width("日本語.cu", 5) == "日本");
    CHECK(truncate_to_width("×××", 2) == "××");
    CHECK(truncate_to_width("short", 24) == "short");
}

TEST_CASE("wrapping breaks at spaces within the width, keeps newlines and the indent of indented lines") {
    CHECK(wrap_to_width("one two three four", 9) == "one two\nthree\nfour");
    CHECK(wrap_to_width("one two three", 12, 4) == "one two\n    three");
    CHECK(wrap_to_width("one two three", 13, 4) == "one two\n    three"); // the first line starts at column 4
    CHECK(wrap_to_width("one two three", 13, 4, 0) == "one two three");   // … or where the caller says
    CHECK(wrap_to_width("a\n  indented line here", 12) == "a\n  indented\n  line here");
    CHECK(wrap_to_width("unbreakable-word-longer-than-width x", 10) == "unbreakable-word-longer-than-width\nx");
    CHECK(wrap_to_width("×× ××", 3) == "××\n××"); // by columns, not bytes
    CHECK(wrap_to_width("para\n\nnext", 80, 4) == "para\n\n    next");
}
