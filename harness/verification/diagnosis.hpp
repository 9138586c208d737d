// Where a wrong output is wrong, in terms of the kernel: a character map of C and the
// row/column/tile pattern in words ("only the last 3 columns: partial tiles along K").
#pragma once

#include "common/portable.hpp"

#include <string>
#include <vector>

namespace gemm {

// The map of C has at most 16×64 cells; element (row, col) falls in this one.
constexpr int map_max_cell_rows = 16, map_max_cell_cols = 64;
GEMM_HOST_DEVICE inline int map_cell_rows(int M) { return M < map_max_cell_rows ? M : map_max_cell_rows; }
GEMM_HOST_DEVICE inline int map_cell_cols(int K) { return K < map_max_cell_cols ? K : map_max_cell_cols; }
GEMM_HOST_DEVICE inline long long map_cell_index(long long row, long long col, int M, int K) {
    return (row * map_cell_rows(M) / M) * map_cell_cols(K) + col * map_cell_cols(K) / K;
}
// What a cell holds, as bits of a flag word.
constexpr unsigned map_cell_unwritten = 1, map_cell_wrong = 2;

// Counts of bad elements by row, by column and by map cell, gathered while checking.
class BadElementCounts {
  public:
    struct Axis {
        const char *line, *lines, *index, *dimension; // "row", "rows", "row", "M"
    };
    BadElementCounts(int M, int K);
    // Counts gathered elsewhere (the GPU check): bad elements per row and per column,
    // and a flag word per map cell (map_cell_unwritten, map_cell_wrong).
    BadElementCounts(int M, int K, std::vector<long long> per_row, std::vector<long long> per_col,
                     const std::vector<unsigned> &cell_flags);
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
