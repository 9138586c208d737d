// The map of bad elements and the pattern in words, from synthetic bad-element sets.
#include "test_support.hpp"
#include "verification/diagnosis.hpp"

#include <doctest/doctest.h>

#include <algorithm>

using namespace gemm;
using gemm::test::contains;

namespace {

template <typename Predicate> BadElementCounts counts_where(int M, int K, Predicate bad, bool unwritten = false) {
    BadElementCounts counts(M, K);
    for (int r = 0; r < M; ++r)
        for (int c = 0; c < K; ++c)
            if (bad(r, c)) counts.add(r, c, unwritten);
    return counts;
}

} // namespace

TEST_CASE("the last columns past the last full 16-wide tile are named as partial tiles along K") {
    const auto counts = counts_where(40, 131, [](int, int c) { return c >= 128; });
    CHECK(counts.pattern() == "only the last 3 columns — col ≥ 128 = 128·⌊K/128⌋: partial tiles along K");
    const auto sixteen = counts_where(40, 37, [](int, int c) { return c >= 32; });
    CHECK(sixteen.pattern() == "only the last 5 columns — col ≥ 32 = 32·⌊K/32⌋: partial tiles along K");
}

TEST_CASE("the last rows are named as partial tiles along M, and one row as the last row") {
    CHECK(counts_where(37, 20, [](int r, int) { return r >= 32; }).pattern() ==
          "only the last 5 rows — row ≥ 32 = 32·⌊M/32⌋: partial tiles along M");
    CHECK(counts_where(
              37, 20, [](int r, int) { return r == 36; }, true)
              .pattern() == "only the last row (row ≥ 36)");
}

TEST_CASE("bad elements in every row are not called the last rows") {
    // Half the elements, in every row and column (as the epilogue known-bad with its steps
    // swapped gives: 9218 of 17399 on a 127×137 C).
    const auto counts = counts_where(127, 137, [](int r, int c) { return (r + c) % 2 == 0; });
    CHECK_FALSE(contains(counts.pattern(), "only the last"));
    CHECK(counts.pattern().rfind("scattered: 8700 elements in 127 rows and 137 columns", 0) == 0);
    // Every row, but only the last columns: the columns are named, never the rows.
    const auto right = counts_where(127, 137, [](int r, int c) { return c >= 128 && (r + c) % 2; });
    const std::string tiles = "col ≥ 128 = 128·⌊K/128⌋: partial tiles along K";
    CHECK(right.pattern() == "only the last 9 columns — " + tiles + " (some of their rows)");
}

TEST_CASE("every element wrong points at indexing or the reduction") {
    CHECK(contains(counts_where(9, 9, [](int, int) { return true; }).pattern(), "every element"));
}

TEST_CASE("a single wrong element is named by its position") {
    CHECK(counts_where(9, 9, [](int r, int c) { return r == 2 && c == 5; }).pattern() == "one element (row 2, col 5)");
}

TEST_CASE("a bottom-right block is partial tiles along both M and K") {
    const auto counts = counts_where(40, 40, [](int r, int c) { return r >= 32 && c >= 32; });
    CHECK(contains(counts.pattern(), "bottom-right corner, row ≥ 32 and col ≥ 32"));
}

TEST_CASE("whole rows in the middle are listed by their range") {
    CHECK(counts_where(30, 10, [](int r, int) { return r >= 10 && r < 12; }).pattern() ==
          "whole rows: 2 rows between row 10 and 11");
}

TEST_CASE("no simple pattern is called scattered with its counts") {
    CHECK(counts_where(30, 30, [](int r, int c) { return (r * 7 + c * 3) % 11 == 0 && r > 0 && r < 29 && c < 29; })
              .pattern()
              .rfind("scattered:", 0) == 0);
}

TEST_CASE("the map marks wrong cells X, unwritten cells u and the rest dots") {
    BadElementCounts counts(4, 8);
    counts.add(0, 7, false);
    counts.add(3, 0, true);
    CHECK(counts.map() == ".......X\n........\n........\nu.......\n");
}

TEST_CASE("the map of a large C has at most 16 rows of 64 cells") {
    const auto counts = counts_where(1000, 1000, [](int r, int c) { return r >= 992 && c < 10; });
    const auto map = counts.map();
    CHECK(std::count(map.begin(), map.end(), '\n') == 16);
    CHECK(map.substr(0, 65) == std::string(64, '.') + "\n");
    CHECK(map.substr(15 * 65, 65) == "X" + std::string(63, '.') + "\n");
}

TEST_CASE("nearly every element wrong is not mistaken for a corner") {
    const auto counts = counts_where(127, 137, [](int r, int c) { return r + c > 1; });
    CHECK(counts.pattern().rfind("nearly every element (17396 of 17399)", 0) == 0);
}
