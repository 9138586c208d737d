// Opening a library on first use and looking up its entry points (cuda_driver/library_symbols.hpp),
// as cuBLAS and cuBLASLt are: a missing file or symbol says which library, file and symbol.
#include "cuda_driver/library_symbols.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

using gemm::LibrarySymbols;

TEST_CASE("a library's entry points are looked up by name, and a missing file or symbol is named") {
    const LibrarySymbols libc("the C library", "libc.so.6");
    std::size_t (*length)(const char *) = nullptr;
    libc.look_up("strlen", length);
    REQUIRE(static_cast<bool>(length));
    CHECK(length("gemm") == 4);

    void (*absent)() = nullptr;
    CHECK_THROWS_WITH(libc.look_up("no_such_entry_point", absent),
                      "the C library (libc.so.6) has no no_such_entry_point");
    try {
        const LibrarySymbols missing("cuBLASLt", "/nonexistent/libcublasLt.so.13");
        FAIL("a missing file opened");
    } catch (const std::runtime_error &e) {
        const std::string what = e.what();
        CHECK(what.rfind("cannot open cuBLASLt: ", 0) == 0);
        CHECK(what.find("/nonexistent/libcublasLt.so.13") != std::string::npos);
    }
}
