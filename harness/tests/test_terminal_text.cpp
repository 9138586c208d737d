// Text from files shown on a terminal: control bytes and invisible characters escaped,
// printable UTF-8 kept.
#include "core/terminal_text.hpp"
#include "core/text.hpp"

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
