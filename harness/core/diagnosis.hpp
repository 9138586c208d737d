// Where a wrong output is wrong, in terms of the kernel: a character map of C and the
// row/column/tile pattern in words ("only the last 3 columns: partial tiles along K").
#pragma once

#include <string>
#include <vector>

namespace gemm {

// Counts of bad elements by row, by column and by map cell, gathered while checking.
class BadElementCounts {
  public:
    struct Axis {
        const char *line, *lines, *index, *dimension; // "row", "rows", "row", "M"
    };
    static constexpr int max_cell_rows = 16, max_cell_cols = 64;

    BadElementCounts(int M, int K);
    void add(long long row, long long col, bool unwritten);
    long long total() const { return total_; }

    // One character per cell of C (a block of rows × columns): '.' all right,
    // 'u' some never written, 'X' some wrong (out of bound, NaN or Inf).
    std::string map() const;
    // The pattern in words, or "" when no simple pattern fits.
    std::string pattern() const;

  private:
    struct Span {
        long long first = -1, last = -1, count = 0; // over rows or columns holding a bad element
    };
    Span span_of(const std::vector<long long> &per_line) const;
    static std::string suffix_words(const Span &span, long long extent, const Axis &axis);

    int M_, K_, cell_rows_, cell_cols_;
    long long total_ = 0;
    std::vector<long long> per_row_, per_col_;
    std::vector<char> cells_;
};

} // namespace gemm
