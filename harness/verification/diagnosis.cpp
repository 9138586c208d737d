#include "verification/diagnosis.hpp"

#include <algorithm>

namespace gemm {

BadElementCounts::BadElementCounts(int M, int K)
    : M_(M), K_(K), cell_rows_(map_cell_rows(M)), cell_cols_(map_cell_cols(K)), per_row_(M, 0), per_col_(K, 0),
      cells_(static_cast<std::size_t>(cell_rows_) * cell_cols_, '.') {}

BadElementCounts::BadElementCounts(int M, int K, std::vector<long long> per_row, std::vector<long long> per_col,
                                   const std::vector<unsigned> &cell_flags)
    : BadElementCounts(M, K) {
    per_row_ = std::move(per_row);
    per_col_ = std::move(per_col);
    for (long long n : per_row_) total_ += n;
    for (std::size_t i = 0; i < cells_.size() && i < cell_flags.size(); ++i)
        cells_[i] = (cell_flags[i] & map_cell_wrong) ? 'X' : (cell_flags[i] & map_cell_unwritten) ? 'u' : '.';
}

void BadElementCounts::add(long long row, long long col, bool unwritten) {
    ++total_;
    ++per_row_[row];
    ++per_col_[col];
    char &cell = cells_[map_cell_index(row, col, M_, K_)];
    if (!unwritten)
        cell = 'X';
    else if (cell == '.')
        cell = 'u';
}

std::string BadElementCounts::map() const {
    std::string text;
    for (int r = 0; r < cell_rows_; ++r) {
        text.append(cells_.begin() + static_cast<long>(r) * cell_cols_,
                    cells_.begin() + static_cast<long>(r + 1) * cell_cols_);
        text += '\n';
    }
    return text;
}

BadElementCounts::Span BadElementCounts::span_of(const std::vector<long long> &per_line) const {
    Span s;
    for (long long i = 0; i < static_cast<long long>(per_line.size()); ++i) {
        if (per_line[i] == 0) continue;
        if (s.first < 0) s.first = i;
        s.last = i;
        ++s.count;
    }
    return s;
}

namespace {

constexpr BadElementCounts::Axis rows_axis{"row", "rows", "row", "M"};
constexpr BadElementCounts::Axis cols_axis{"column", "columns", "col", "K"};

} // namespace

// "only the last 3 columns — col ≥ 128 = 16·⌊K/16⌋: partial tiles along K" when the bad
// lines are exactly a suffix; names the largest power-of-two tile whose edge starts it. Every
// line is no suffix: "only the last 127 rows (row ≥ 0)" would say nothing.
std::string BadElementCounts::suffix_words(const Span &span, long long extent, const Axis &axis) {
    const bool suffix = span.last == extent - 1 && span.count == span.last - span.first + 1;
    if (!suffix || span.first <= 0) return "";
    const std::string first = std::to_string(span.first);
    std::string words = span.count == 1 ? std::string("only the last ") + axis.line
                                        : "only the last " + std::to_string(span.count) + " " + axis.lines;
    for (long long tile = 128; tile >= 16; tile /= 2) {
        if (span.first > 0 && span.first == tile * (extent / tile)) {
            const std::string t = std::to_string(tile);
            return words + " — " + axis.index + " ≥ " + first + " = " + t + "·⌊" + axis.dimension + "/" + t +
                   "⌋: partial tiles along " + axis.dimension;
        }
    }
    return words + " (" + axis.index + " ≥ " + first + ")";
}

std::string BadElementCounts::pattern() const {
    if (total_ == 0) return "";
    const long long elements = static_cast<long long>(M_) * K_;
    if (total_ == elements) return "every element — indexing, transposition or the reduction itself";
    if (total_ == 1) {
        const Span r = span_of(per_row_), c = span_of(per_col_);
        return "one element (row " + std::to_string(r.first) + ", col " + std::to_string(c.first) + ")";
    }
    const Span rows = span_of(per_row_), cols = span_of(per_col_);
    if (rows.count == M_ && cols.count == K_ && total_ * 10 >= elements * 9)
        return "nearly every element (" + std::to_string(total_) + " of " + std::to_string(elements) +
               ") — indexing, transposition or the reduction itself";
    const bool whole_rows = total_ == rows.count * static_cast<long long>(K_);
    const bool whole_cols = total_ == cols.count * static_cast<long long>(M_);
    if (whole_rows) {
        const auto words = suffix_words(rows, M_, rows_axis);
        if (!words.empty()) return words;
        return "whole rows: " + std::to_string(rows.count) + " rows between row " + std::to_string(rows.first) +
               " and " + std::to_string(rows.last);
    }
    if (whole_cols) {
        const auto words = suffix_words(cols, K_, cols_axis);
        if (!words.empty()) return words;
        return "whole columns: " + std::to_string(cols.count) + " columns between col " + std::to_string(cols.first) +
               " and " + std::to_string(cols.last);
    }
    const auto row_words = suffix_words(rows, M_, rows_axis);
    const auto col_words = suffix_words(cols, K_, cols_axis);
    if (!row_words.empty() && !col_words.empty() && rows.first > 0 && cols.first > 0)
        return "only the bottom-right corner, row ≥ " + std::to_string(rows.first) + " and col ≥ " +
               std::to_string(cols.first) + ": partial tiles along both M and K";
    if (!row_words.empty()) return row_words + " (some of their columns)";
    if (!col_words.empty()) return col_words + " (some of their rows)";
    return "scattered: " + std::to_string(total_) + " elements in " + std::to_string(rows.count) + " rows and " +
           std::to_string(cols.count) + " columns";
}

} // namespace gemm
