// Testcase authoring for `judge case new|validate|show|export|import`. Every file this
// writes is first parsed by parse_testcase, so the tools can never produce a case the
// judge would reject; the grammar and its limits live in testcase.cpp alone.
#include "testcases/case_tools.hpp"
#include "testcases/categories.hpp"
#include "testcases/problem.hpp"

#include "common/errors.hpp"
#include "common/rng.hpp"
#include "common/terminal_text.hpp"
#include "common/text.hpp"
#include "testcases/testcase.hpp"
#include "verification/check.hpp"
#include "verification/reference.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <map>
#include <sstream>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// testcases/README.md: an explicit matrix holds at most 10^6 elements (the parser
// enforces it too; checking it while reading the .in names the line of the sizes).
constexpr long long max_explicit_elements = 1'000'000;
// An exported pair is text of ~15 bytes a number: 10^7 elements is already ~150 MB.
constexpr long long max_exported_elements = 10'000'000;
// show_case summarizes generated data by generating it; past 2^28 floats (1 GiB a matrix) it
// says so instead of allocating.
constexpr long long max_summarized_elements = 1LL << 28;
// "every matrix at most 16×16": small enough to read on a terminal.
constexpr int max_shown_dimension = 16;

long long elements(long long rows, long long cols) { return rows * cols; }

// ---- numbers as text -------------------------------------------------------------

// Nine significant digits identify every float, so "%.9g" text parses back to the same float.
std::string nine_digits(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", x);
    return buffer;
}

std::string float_text(float x) { return nine_digits(static_cast<double>(x)); }

// The shortest text that parses back to the same double: "0.1", not "0.10000000000000001".
std::string double_text(double x) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
    return std::string(buffer, result.ptr);
}

// For statistics, which a reader compares by eye rather than parses.
std::string rounded_text(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

std::string shape_text(long long rows, long long cols) { return std::to_string(rows) + "×" + std::to_string(cols); }

// Rows of `values` (rows × cols, row-major) as lines of "%.9g" numbers; written a row at a
// time so a 10^7-element export never holds its whole text in memory.
void write_rows(std::ostream &out, const std::vector<float> &values, int cols) {
    std::string line;
    for (std::size_t start = 0; start < values.size(); start += static_cast<std::size_t>(cols)) {
        line.clear();
        for (int c = 0; c < cols; ++c) {
            if (c > 0) line += ' ';
            line += float_text(values[start + c]);
        }
        line += '\n';
        out << line;
    }
}

// ---- files -----------------------------------------------------------------------

std::string read_file(const std::string &path) {
    auto text = read_text_file(path);
    if (!text) throw TestcaseError(escape_for_terminal(path) + ":0: cannot be read");
    return without_utf8_bom(std::move(*text));
}

// A path for a message: a file name may hold any byte but the terminal gets none raw.
std::string shown(const fs::path &path) { return escape_for_terminal(path.string()); }

// Creates the file only if it does not exist yet ("x": the check and the creation are one
// step), so two authors racing for one name cannot overwrite each other.
void write_new_file(const fs::path &path, const std::string &text) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::FILE *file = std::fopen(path.c_str(), "wx");
    if (!file) {
        if (errno == EEXIST)
            throw UsageError(shown(path) + ": already exists; a case is never overwritten, choose another name");
        throw SetupError(shown(path) + ": cannot be created: " + std::strerror(errno));
    }
    const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size();
    if (std::fclose(file) != 0 || !written) {
        fs::remove(path, ec); // a half-written case would block the retry as "already exists"
        throw SetupError(shown(path) + ": could not be written completely");
    }
}

struct MatrixRows {
    const std::vector<float> &values;
    int cols;
};

// Export output is derived data: writing it again replaces it.
void write_exported_file(const fs::path &path, const std::string &first_line,
                         std::initializer_list<MatrixRows> matrices) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw SetupError(shown(path) + ": cannot be created: " + std::strerror(errno));
    out << first_line;
    for (const MatrixRows &m : matrices) write_rows(out, m.values, m.cols);
    out.close();
    if (!out) throw SetupError(shown(path) + ": could not be written completely");
}

// Where messages about a case point: its file, or its name when it came from no file.
std::string case_label(const TestCase &tc) { return escape_for_terminal(tc.path.empty() ? tc.name : tc.path); }

// ---- case names ------------------------------------------------------------------

[[noreturn]] void refuse_name(const std::string &name, const std::string &why) {
    throw UsageError("case name `" + escape_for_terminal(name) + "`: " + why);
}

// A name is a path below the suite root whose first folder is the category: "secret/19-x".
void check_case_name(const std::string &name) {
    if (name.find("..") != std::string::npos) refuse_name(name, "must not contain `..`; it stays below the suite root");
    if (!name.empty() && name.front() == '/')
        refuse_name(name, "must be relative to the suite root, like secret/19-my-case");
    if (name.find('/') == std::string::npos)
        refuse_name(name, "needs a category folder first, like secret/19-my-case (sample, secret, perf, …)");
    if (fs::path(name).extension() == ".case") refuse_name(name, "is given without `.case`; it is added");
    for (unsigned char c : name)
        if (c < 0x20 || c == '\\') refuse_name(name, "must not contain control characters or backslashes");
    std::istringstream parts(name);
    for (std::string part; std::getline(parts, part, '/');)
        if (part.empty() || part == ".") refuse_name(name, "has an empty or `.` part");
    if (name.back() == '/') refuse_name(name, "ends with `/`; it needs a case after the category folder");
}

fs::path new_case_path(const std::string &suite_root, const std::string &name) {
    check_case_name(name);
    const fs::path path = fs::path(suite_root) / (name + ".case");
    std::error_code ec;
    // Checked again, atomically, when writing; checking now saves reading a large import first.
    if (fs::exists(path, ec))
        throw UsageError(shown(path) + ": already exists; a case is never overwritten, choose another name");
    return path;
}

// A value that must stay one line of the file: a newline would smuggle in a key of its own.
void check_single_line(const std::string &text, const char *option) {
    if (text.find_first_of("\r\n") != std::string::npos)
        throw UsageError(std::string(option) + ": must be a single line");
}

// ---- create ----------------------------------------------------------------------

std::string data_words(const std::string &data) {
    check_single_line(data, "--data");
    if (data.find('#') != std::string::npos)
        throw UsageError("--data '" + escape_for_terminal(data) + "': must not contain `#`");
    std::istringstream in(data);
    std::string words, word;
    while (in >> word) words += (words.empty() ? "" : " ") + word;
    if (words.rfind("explicit", 0) == 0)
        throw UsageError("--data explicit: needs its matrices written out; `judge case import` takes them");
    // The kinds and their word counts in the option's own syntax (the file's parser says
    // `data …`, which a --data value does not start with); the numbers are the parser's.
    const std::map<std::string, std::size_t> words_of_kind = {
        {"uniform", 3}, {"integers", 3}, {"normal", 1}, {"mixed", 1}, {"sparse", 2}};
    const std::string kind = words.substr(0, words.find(' '));
    const std::size_t count = std::count(words.begin(), words.end(), ' ') + (words.empty() ? 0 : 1);
    const auto known = words_of_kind.find(kind);
    if (known == words_of_kind.end() || known->second != count)
        throw UsageError("--data '" + escape_for_terminal(data) +
                         "': expected 'uniform LOW HIGH', 'integers LOW HIGH', normal, mixed or 'sparse DENSITY'");
    return words;
}

// The file's lines, each with the option it came from, so a problem names the option.
std::vector<OptionLine> generated_case_lines(const NewCaseRequest &r) {
    check_single_line(r.comment, "--comment");
    std::vector<OptionLine> lines;
    if (!r.comment.empty()) lines.push_back({"--comment", "# " + r.comment});
    std::string sizes;
    for (const long long d : r.dims) sizes += (sizes.empty() ? "" : " ") + std::to_string(d);
    lines.push_back({"--shape " + sizes, "shape " + sizes});
    const std::string data = data_words(r.data);
    lines.push_back({"--data '" + escape_for_terminal(data) + "'", "data " + data});
    lines.push_back({"--seed " + std::to_string(r.seed), "seed " + std::to_string(r.seed)});
    if (r.time_limit_s) {
        const std::string seconds = double_text(*r.time_limit_s);
        lines.push_back({"--time-limit " + seconds, "time_limit " + seconds});
    }
    return lines;
}

// ---- import: numbers from a competitive-programming file ---------------------------

// Whitespace-separated words of a whole file, each with its line, for `file:line:` messages.
class NumberReader {
  public:
    explicit NumberReader(std::string path) : path_(std::move(path)), text_(read_file(path_)) {}

    [[noreturn]] void fail(const std::string &why) const {
        throw TestcaseError(escape_for_terminal(path_) + ":" + std::to_string(line_) + ": " + escape_for_terminal(why),
                            line_);
    }
    int line() const { return line_; }

    // One dimension of "M N K".
    int read_dimension(const char *what) {
        std::string word;
        if (!next_word(word)) fail(std::string("expected `M N K` first; the file ends before ") + what);
        long long value = 0;
        const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), value);
        if (ec != std::errc() || end != word.data() + word.size() || value < 1 ||
            value > std::numeric_limits<int>::max())
            fail(std::string(what) + " must be a whole number from 1 to 2147483647, got `" + word + "`");
        return static_cast<int>(value);
    }

    // rows × cols numbers, rounded to float as the case parser rounds them. `row_lines`, when
    // given, receives the line of each row's first number.
    std::vector<float> read_matrix(const char *label, int rows, int cols, std::vector<int> *row_lines = nullptr) {
        const long long count = elements(rows, cols);
        std::vector<float> values;
        values.reserve(static_cast<std::size_t>(count));
        std::string word;
        for (long long i = 0; i < count; ++i) {
            if (!next_word(word))
                fail("the file ends after " + std::to_string(i) + " of the " + shape_text(rows, cols) + " = " +
                     std::to_string(count) + " numbers of " + label);
            values.push_back(parse_element(word, label));
            if (row_lines && i % cols == 0) row_lines->push_back(line_);
        }
        return values;
    }

    // Extra numbers mean the sizes or the layout were misread; refuse rather than guess.
    void expect_end(const std::string &after) {
        std::string word;
        if (next_word(word)) fail("unexpected `" + word + "` after " + after);
    }

  private:
    bool next_word(std::string &word) {
        auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
        while (pos_ < text_.size() && is_space(text_[pos_])) {
            if (text_[pos_] == '\n') ++next_line_;
            ++pos_;
        }
        if (pos_ == text_.size()) return false;
        line_ = next_line_;
        const std::size_t start = pos_;
        while (pos_ < text_.size() && !is_space(text_[pos_])) ++pos_;
        word.assign(text_, start, pos_ - start);
        return true;
    }

    float parse_element(const std::string &word, const char *label) const {
        const char *begin = word.data();
        // "+3" is common in such files; from_chars refuses a plus sign, and "+-3" stays refused.
        if (word.size() > 1 && word[0] == '+' && word[1] != '-' && word[1] != '+') ++begin;
        double value = 0;
        const auto [end, ec] = std::from_chars(begin, word.data() + word.size(), value);
        if (ec != std::errc() || end != word.data() + word.size() || !std::isfinite(value))
            fail("`" + word + "` in " + label + " is not a finite number");
        if (!std::isfinite(static_cast<float>(value))) fail("`" + word + "` in " + label + " is beyond FP32's range");
        return static_cast<float>(value);
    }

    std::string path_, text_;
    std::size_t pos_ = 0;
    int line_ = 1, next_line_ = 1;
};

void check_explicit_size(const NumberReader &in, const char *label, int rows, int cols) {
    if (elements(rows, cols) > max_explicit_elements)
        in.fail(std::string(label) + " would be " + shape_text(rows, cols) + " = " +
                std::to_string(elements(rows, cols)) +
                " elements; an explicit case holds at most 10^6 a matrix (use a generated case)");
}

struct ImportedData {
    int M = 0, N = 0, K = 0;
    std::vector<float> A, B, C;
    std::vector<int> C_row_lines; // the .ans line of each row of C
};

// Every size is checked against the .in's first line, where M, N and K are written.
void read_inputs(const std::string &in_path, bool with_answer, ImportedData &d) {
    NumberReader in(in_path);
    d.M = in.read_dimension("M");
    d.N = in.read_dimension("N");
    d.K = in.read_dimension("K");
    check_explicit_size(in, "A", d.M, d.N);
    check_explicit_size(in, "B", d.N, d.K);
    if (with_answer) check_explicit_size(in, "C", d.M, d.K);
    d.A = in.read_matrix("A", d.M, d.N);
    d.B = in.read_matrix("B", d.N, d.K);
    in.expect_end("the M·N + N·K numbers of A and B");
}

void read_answer(const std::string &ans_path, ImportedData &d) {
    NumberReader ans(ans_path);
    d.C = ans.read_matrix("C", d.M, d.K, &d.C_row_lines);
    ans.expect_end("the M·K numbers of C");
}

std::string explicit_case_text(const ImportedData &d, const std::string &comment) {
    std::ostringstream text;
    text << "# " << comment << "\n";
    text << "shape " << d.M << " " << d.N << " " << d.K << "\n";
    text << "data explicit\n";
    text << "A\n";
    write_rows(text, d.A, d.N);
    text << "B\n";
    write_rows(text, d.B, d.K);
    if (!d.C.empty()) {
        text << "C\n";
        write_rows(text, d.C, d.K);
    }
    return text.str();
}

std::string file_name_for_comment(const std::string &path) {
    std::string name = fs::path(path).filename().string();
    std::replace_if(
        name.begin(), name.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
    return name;
}

// The parser's message without its "path:line: " prefix, whose line is one of the text
// being built, which the user never sees.
std::string without_location(const std::string &message, const std::string &path) {
    const std::string prefix = escape_for_terminal(path) + ":";
    if (message.rfind(prefix, 0) != 0) return message;
    const auto after_line = message.find(": ", prefix.size());
    return after_line == std::string::npos ? message : message.substr(after_line + 2);
}

// ---- show ------------------------------------------------------------------------

// Rows of cells padded into columns; the first `left_aligned` columns are left-aligned
// (labels), the rest right-aligned (numbers, so their last digits line up).
std::string aligned_table(const std::vector<std::vector<std::string>> &rows, std::size_t left_aligned,
                          const std::string &indent) {
    std::vector<std::size_t> widths;
    for (const auto &row : rows) {
        widths.resize(std::max(widths.size(), row.size()), 0);
        for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], display_width(row[c]));
    }
    std::string out;
    for (const auto &row : rows) {
        std::string line = indent;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string padding(widths[c] - display_width(row[c]), ' ');
            if (c > 0) line += "  ";
            line += c < left_aligned ? row[c] + padding : padding + row[c];
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::string matrix_view(const std::string &title, const std::vector<float> &values, int rows, int cols) {
    std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(rows));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) cells[r].push_back(float_text(values[static_cast<std::size_t>(r) * cols + c]));
    return title + "\n" + aligned_table(cells, 0, "  ");
}

// The exact expected C as written, not rounded to float: it is what the file says.
std::string expected_c_view(const TestCase &tc) {
    std::vector<std::vector<std::string>> cells(static_cast<std::size_t>(tc.M));
    for (int r = 0; r < tc.M; ++r)
        for (int c = 0; c < tc.K; ++c)
            cells[r].push_back(nine_digits(tc.expected_C[static_cast<std::size_t>(r) * tc.K + c]));
    return "expected C (" + shape_text(tc.M, tc.K) + ")\n" + aligned_table(cells, 0, "  ");
}

struct MatrixSummary {
    double min = 0, max = 0, mean = 0, root_mean_square = 0;
    long long zeros = 0;
};

template <typename T> MatrixSummary summarize_matrix(const std::vector<T> &values) {
    MatrixSummary s;
    if (values.empty()) return s;
    s.min = s.max = static_cast<double>(values[0]);
    double sum = 0, sum_of_squares = 0;
    for (T v : values) {
        const double x = static_cast<double>(v);
        s.min = std::min(s.min, x);
        s.max = std::max(s.max, x);
        sum += x;
        sum_of_squares += x * x;
        s.zeros += x == 0;
    }
    const double n = static_cast<double>(values.size());
    s.mean = sum / n;
    s.root_mean_square = std::sqrt(sum_of_squares / n);
    return s;
}

template <typename T>
std::vector<std::string> summary_row(const std::string &label, const std::vector<T> &values, int rows, int cols) {
    const MatrixSummary s = summarize_matrix(values);
    // min and max are elements: shown exactly; mean and root-mean-square to six digits.
    return {label,
            shape_text(rows, cols),
            nine_digits(s.min),
            nine_digits(s.max),
            rounded_text(s.mean),
            rounded_text(s.root_mean_square),
            std::to_string(s.zeros)};
}

std::string statistics_view(const TestCase &tc) {
    if (std::max({elements(tc.M, tc.N), elements(tc.N, tc.K)}) > max_summarized_elements)
        return "statistics skipped: a matrix of more than 2^28 elements is not generated just to summarize it\n";
    const CaseInputs inputs = case_inputs(tc, checked_input_set);
    std::vector<std::vector<std::string>> rows = {
        {"matrix", "shape", "min", "max", "mean", "root-mean-square", "zeros"},
        summary_row("A", inputs.A, tc.M, tc.N),
        summary_row("B", inputs.B, tc.N, tc.K),
    };
    if (!tc.expected_C.empty()) rows.push_back(summary_row("expected C", tc.expected_C, tc.M, tc.K));
    return "statistics of the checked call's inputs\n" + aligned_table(rows, 2, "  ");
}

std::string matrices_view(const TestCase &tc) {
    const CaseInputs inputs = case_inputs(tc, checked_input_set);
    std::string out = matrix_view("A (" + shape_text(tc.M, tc.N) + ")", inputs.A, tc.M, tc.N);
    out += matrix_view("B (" + shape_text(tc.N, tc.K) + ")", inputs.B, tc.N, tc.K);
    if (!tc.expected_C.empty()) out += expected_c_view(tc);
    return out;
}

// The words of a `data` line that would produce this generator.
std::string generator_words(const GeneratorSpec &g) {
    std::string words = distribution_name(g.distribution);
    if (g.distribution == Distribution::Uniform || g.distribution == Distribution::Integers)
        words += " " + double_text(g.low) + " " + double_text(g.high);
    if (g.distribution == Distribution::Sparse) words += " " + double_text(g.density);
    return words;
}

std::string time_limit_text(const TestCase &tc) {
    if (tc.time_limit_s > 0) return double_text(tc.time_limit_s) + " s per call";
    return rounded_text(time_limit_s(tc)) + " s per call (default: 1 s + 2·M·N·K at 100 GFLOP/s)";
}

std::string header_view(const TestCase &tc, const std::vector<std::string> &dim_names) {
    std::vector<std::vector<std::string>> rows = {
        {"case", tc.name},
        {"category", tc.category},
        {"shape", std::to_string(tc.M) + " " + std::to_string(tc.N) + " " + std::to_string(tc.K) + "  (A " +
                      shape_text(tc.M, tc.N) + ", B " + shape_text(tc.N, tc.K) + ", C " + shape_text(tc.M, tc.K) + ")"},
    };
    // Another problem's case: its own dims too, before the product's shape below.
    if (const std::string size = case_size_text(tc, dim_names); size != shape_text(shape_of(tc), "×"))
        rows.insert(rows.begin() + 2, {"size", size});
    if (!tc.path.empty()) rows.insert(rows.begin() + 1, {"file", tc.path});
    if (tc.has_explicit_data) {
        rows.push_back({"data", "explicit" + std::string(tc.expected_C.empty() ? "" : ", with the expected C")});
        rows.push_back({"timed data", generator_words(tc.generator) + " (generated from the seed)"});
    } else {
        rows.push_back({"data", generator_words(tc.generator)});
    }
    rows.push_back({"seed", std::to_string(tc.generator.seed)});
    // The scalars the entry point is called with (α, β, scales, zero points, a slope), the
    // case's own or the problem's defaults, as the solution receives them.
    for (const auto &[role, value] : tc.scalars) rows.push_back({role, formatted("%.9g", value)});
    rows.push_back({"time limit", time_limit_text(tc)});
    return aligned_table(rows, 2, "");
}

bool is_small(const TestCase &tc) {
    return tc.M <= max_shown_dimension && tc.N <= max_shown_dimension && tc.K <= max_shown_dimension;
}

// ---- validate --------------------------------------------------------------------

// The judge's own checks of one file, as the suite's loader makes them: it is a regular
// file, it parses, and its expected C (if any) agrees with A·B.
std::optional<std::string> problem_of_file(const std::string &path, const std::string &suite_root) {
    try {
        load_testcase(path, suite_root);
    } catch (const TestcaseError &e) {
        return std::string(e.what());
    }
    return std::nullopt;
}

std::string categories_text() {
    std::string text;
    for (const auto &category : category_names()) text += (text.empty() ? "" : ", ") + category;
    return text;
}

// "path:0: never runs: why", or "never runs unless named: why" for a case only --case or
// --category picks.
std::string never_runs(const fs::path &path, const std::string &why, bool unless_named = false) {
    return shown(path) + ":0: never runs" + (unless_named ? " unless named: " : ": ") + why;
}

// A name meant for a case that the loader, which reads `*.case` exactly, passes over:
// "x.CASE", "x.case " or a file named only ".case".
bool looks_like_a_case_file(const fs::path &path) {
    std::string name = path.filename().string();
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name.size() >= 5 && name.compare(name.size() - 5, 5, ".case") == 0 && path.extension() != ".case";
}

// Why a *.case file the loader reads is still never run: no run takes its folder unless told.
std::optional<std::string> uncategorized(const fs::path &file, const std::string &suite_root) {
    // Compared as absolute paths with their folders' links resolved: `case validate testcases/mine` names the
    // suite's folder as the suite root does not.
    std::error_code ec;
    const fs::path where = fs::weakly_canonical(fs::absolute(file).parent_path(), ec) / file.filename();
    const fs::path relative = where.lexically_relative(fs::weakly_canonical(fs::absolute(suite_root), ec));
    if (relative.empty() || relative == "." || *relative.begin() == "..") return std::nullopt; // not in the suite
    const std::string folder = relative.begin()->string();
    if (std::next(relative.begin()) == relative.end())
        return never_runs(file, "it is in no category folder (" + categories_text() + ")", true);
    const auto categories = category_names();
    if (std::find(categories.begin(), categories.end(), folder) != categories.end()) return std::nullopt;
    return never_runs(
        file, "the folder '" + escape_for_terminal(folder) + "' is not a category (" + categories_text() + ")", true);
}

// A link to a folder: the loader does not follow it, so the cases behind it never load.
std::optional<std::string> unfollowed_link(const fs::directory_entry &entry) {
    std::error_code ec;
    if (!entry.is_symlink(ec) || !fs::is_directory(entry.path(), ec)) return std::nullopt;
    std::size_t cases = 0;
    try {
        cases = case_files_below(entry.path().string()).size();
    } catch (const fs::filesystem_error &) {
        return std::nullopt;
    }
    if (cases == 0) return std::nullopt;
    return never_runs(entry.path(), "a link to a folder, which the suite's loader does not follow; its " +
                                        std::to_string(cases) + " .case file(s) are never read");
}

} // namespace

std::vector<std::string> never_run_files(const std::string &path, const std::string &suite_root) {
    std::vector<std::string> problems;
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) return problems;
    if (!fs::is_directory(path, ec)) {
        if (looks_like_a_case_file(path))
            problems.push_back(never_runs(path, "the suite's loader reads only names ending in .case"));
        else if (const auto why = uncategorized(path, suite_root))
            problems.push_back(*why);
        return problems;
    }
    std::vector<fs::directory_entry> entries;
    try {
        // Another problem's suite below (its own problem.json) is its own, not this one's.
        for (auto it = fs::recursive_directory_iterator(path); it != fs::recursive_directory_iterator(); ++it) {
            if (it->is_directory(ec) && fs::exists(problem_file_of(it->path().string()), ec)) {
                it.disable_recursion_pending();
                continue;
            }
            entries.push_back(*it);
        }
    } catch (const fs::filesystem_error &) {
        return problems; // validate_path says the folder cannot be listed
    }
    std::sort(entries.begin(), entries.end());
    for (const auto &entry : entries) {
        if (looks_like_a_case_file(entry.path()))
            problems.push_back(never_runs(entry.path(), "the suite's loader reads only names ending in .case"));
        else if (const auto why = unfollowed_link(entry))
            problems.push_back(*why);
        else if (entry.path().extension() == ".case")
            if (const auto why = uncategorized(entry.path(), suite_root)) problems.push_back(*why);
    }
    return problems;
}

std::string create_generated_case(const std::string &suite_root, const NewCaseRequest &request) {
    const fs::path path = new_case_path(suite_root, request.name);
    const std::vector<OptionLine> lines = generated_case_lines(request);
    // Throws, naming the option, before writing; the shape in the suite's problem's dims.
    const ProblemDescriptor &problem = suite_problem(suite_root);
    const std::size_t wanted = problem.dims.size();
    if (request.dims.size() != wanted) {
        std::string names;
        for (const auto &d : problem.dims) names += (names.empty() ? "" : "×") + d;
        throw UsageError("--shape: " + problem.name + " takes " + std::to_string(wanted) + " sizes (" + names +
                         "), not " + std::to_string(request.dims.size()));
    }
    parse_option_case(lines, request.name, "--shape with --data", &problem);
    std::string text;
    for (const auto &line : lines) text += line.line + "\n";
    write_new_file(path, text);
    return path.string();
}

std::string import_pair(const std::string &suite_root, const std::string &name, const std::string &in_path,
                        const std::string &ans_path) {
    const fs::path path = new_case_path(suite_root, name);
    ImportedData data;
    const bool has_answer = !ans_path.empty();
    read_inputs(in_path, has_answer, data);
    if (has_answer) read_answer(ans_path, data);
    std::string comment = "imported from " + file_name_for_comment(in_path);
    if (has_answer) comment += " and " + file_name_for_comment(ans_path);
    const std::string text = explicit_case_text(data, comment);

    TestCase tc;
    try {
        tc = parse_testcase(text, path.string(), name);
    } catch (const TestcaseError &e) {
        // What is left for the parser to refuse is A and B as a whole (out-of-range or
        // all-zero data, a result that could overflow): the .in file's doing.
        throw TestcaseError(escape_for_terminal(in_path) +
                            ": does not make a valid case: " + without_location(e.what(), path.string()));
    }
    if (has_answer) {
        tc.path = ans_path; // so a mismatch names the .ans file and the line of the row
        tc.expected_C_row_lines = data.C_row_lines;
        if (auto why = expected_output_mismatch(tc, reference_on_cpu(tc.A, tc.B, tc.M, tc.N, tc.K)))
            throw TestcaseError(*why);
    }
    write_new_file(path, text);
    return path.string();
}

std::pair<std::string, std::string> export_pair(const TestCase &tc, const std::string &dir) {
    const long long largest = std::max({elements(tc.M, tc.N), elements(tc.N, tc.K), elements(tc.M, tc.K)});
    if (largest > max_exported_elements)
        throw UsageError(case_label(tc) + ": a matrix of " + std::to_string(largest) +
                         " elements is more than export writes (10^7 a matrix)");
    const CaseInputs inputs = case_inputs(tc, checked_input_set);
    const Reference ref = reference_on_cpu(inputs.A, inputs.B, tc.M, tc.N, tc.K);
    std::vector<float> C(ref.value.size());
    std::transform(ref.value.begin(), ref.value.end(), C.begin(), [](double x) { return static_cast<float>(x); });

    std::string stem = fs::path(tc.name).filename().string();
    if (stem.empty()) stem = "case";
    std::error_code ec;
    fs::create_directories(dir, ec);
    const fs::path in_path = fs::path(dir) / (stem + ".in");
    const fs::path ans_path = fs::path(dir) / (stem + ".ans");
    const std::string sizes = std::to_string(tc.M) + " " + std::to_string(tc.N) + " " + std::to_string(tc.K) + "\n";
    write_exported_file(in_path, sizes, {{inputs.A, tc.N}, {inputs.B, tc.K}});
    write_exported_file(ans_path, "", {{C, tc.K}});
    return {in_path.string(), ans_path.string()};
}

std::string show_case(const TestCase &tc, const std::vector<std::string> &dim_names) {
    std::string out = header_view(tc, dim_names) + "\n";
    out += is_small(tc) ? matrices_view(tc) : statistics_view(tc);
    return out;
}

std::vector<std::string> validate_path(const std::string &path, const std::string &suite_root) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
        if (auto problem = problem_of_file(path, suite_root)) return {*problem};
        return never_run_files(path, suite_root);
    }
    std::vector<std::string> files;
    try {
        files = case_files_below(path);
    } catch (const fs::filesystem_error &e) {
        return {path + ":0: cannot be listed: " + e.code().message()};
    }
    std::vector<std::string> problems = never_run_files(path, suite_root);
    if (files.empty() && problems.empty()) return {path + ":0: holds no *.case files"};
    for (const auto &file : files)
        if (auto problem = problem_of_file(file, suite_root)) problems.push_back(*problem);
    return problems;
}

} // namespace gemm
