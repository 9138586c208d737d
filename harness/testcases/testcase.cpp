#include "testcases/testcase.hpp"
#include "common/nearest_name.hpp"
#include "common/terminal_text.hpp"
#include "common/text.hpp"
#include "testcases/categories.hpp"
#include "testcases/problem.hpp"
#include "verification/check.hpp"
#include "verification/reference.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <sstream>

namespace gemm {

namespace {

// The order a learner wants to read: the tiny public cases, the edge shapes, the big ones.
int category_rank(const std::string &category) {
    const auto order = category_names();
    return static_cast<int>(std::find(order.begin(), order.end(), category) - order.begin());
}

// Magnitudes are kept inside FP32's normal range: no element past 1e30, no non-zero
// element under 1e-15 (so every product is ≥ 1e-30, far above the subnormals at 1e-38,
// where a correct FP32 kernel would lose the precision the bound assumes).
constexpr double max_element_magnitude = 1e30;
constexpr double min_element_magnitude = 1e-15;
constexpr double max_result_magnitude = 1e37;
constexpr double max_integer_magnitude = 1 << 24; // exact in float
// A shape must be one a GPU can hold and a run can time: A, B and C in FP32 within 1 TiB
// (more than any GPU has), and without a `time_limit` line a default limit within the
// 600 s that `time_limit` may set (2147483647³ would otherwise get 2e17 s).
constexpr double max_matrices_bytes = 1099511627776.0;
constexpr double max_time_limit_s = 600;

class Parser {
  public:
    Parser(const std::string &text, std::string path, const ProblemDescriptor &problem)
        : in_(text), path_(std::move(path)), problem_(problem) {}

    TestCase parse(const std::string &name);

  private:
    [[noreturn]] void fail(const std::string &why) const { fail_at(line_number_, why); }
    [[noreturn]] void fail_at(int line, const std::string &why) const {
        throw TestcaseError(escape_for_terminal(path_) + ":" + std::to_string(line) + ": " + escape_for_terminal(why),
                            line);
    }
    bool next_line(std::vector<std::string> &tokens);
    void expect_count(const std::vector<std::string> &t, std::size_t n, const char *usage) const {
        if (t.size() != n) fail(std::string("expected `") + usage + "`");
    }
    long long parse_integer(const std::string &token, const char *what) const;
    double parse_real(const std::string &token, const char *what) const;
    void check_range(const TestCase &tc, double max_a, double max_b) const;
    void check_shape_is_judgeable(const TestCase &tc) const;
    int parse_dimension(const std::string &token, const char *what) const;
    void parse_data(const std::vector<std::string> &t, TestCase &tc);
    void parse_shape(const std::vector<std::string> &t, TestCase &tc);
    std::string shape_usage() const;
    std::vector<double> read_matrix(const char *label, int rows, int cols, std::vector<int> *row_lines = nullptr);
    void check_complete(TestCase &tc);
    void check_int8(const TestCase &tc) const;

    std::istringstream in_;
    std::string path_;
    const ProblemDescriptor &problem_;
    int line_number_ = 0;
    int shape_line_ = 0;
    int data_line_ = 0;
    std::set<std::string> seen_;
    bool data_explicit_ = false, has_data_ = false, has_seed_ = false;
    std::vector<double> a_, b_, c_;
};

bool Parser::next_line(std::vector<std::string> &tokens) {
    std::string line;
    while (std::getline(in_, line)) {
        ++line_number_;
        if (auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        tokens.clear();
        for (std::string w; words >> w;) tokens.push_back(w);
        if (!tokens.empty()) return true;
    }
    return false;
}

long long Parser::parse_integer(const std::string &token, const char *what) const {
    long long value = 0;
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec == std::errc::result_out_of_range) fail(std::string(what) + " is out of range: `" + token + "`");
    if (ec != std::errc() || end != token.data() + token.size())
        fail(std::string(what) + " must be an integer, got `" + token + "`");
    return value;
}

double Parser::parse_real(const std::string &token, const char *what) const {
    double value = 0;
    auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
        fail(std::string(what) + " must be a finite number, got `" + token + "`");
    return value;
}

int Parser::parse_dimension(const std::string &token, const char *what) const {
    const long long v = parse_integer(token, what);
    if (v < 1 || v > 2147483647LL) fail(std::string(what) + " must be between 1 and 2147483647, got " + token);
    return static_cast<int>(v);
}

void Parser::parse_data(const std::vector<std::string> &t, TestCase &tc) {
    data_line_ = line_number_;
    if (t.size() == 2 && t[1] == "explicit") {
        data_explicit_ = true;
        return;
    }
    auto &g = tc.generator;
    if (t.size() == 2 && (t[1] == "normal" || t[1] == "mixed")) {
        g.distribution = t[1] == "normal" ? Distribution::Normal : Distribution::Mixed;
        return;
    }
    if (t.size() == 3 && t[1] == "sparse") {
        g.distribution = Distribution::Sparse;
        g.density = parse_real(t[2], "DENSITY");
        if (!(g.density > 0 && g.density <= 1)) fail("sparse needs a DENSITY in (0, 1]");
        return;
    }
    if (t.size() != 4 || (t[1] != "uniform" && t[1] != "integers"))
        fail("expected `data uniform LOW HIGH`, `data integers LOW HIGH`, `data normal`, `data mixed`, "
             "`data sparse DENSITY` or `data explicit`");
    g.distribution = t[1] == "uniform" ? Distribution::Uniform : Distribution::Integers;
    if (g.distribution == Distribution::Uniform) {
        g.low = parse_real(t[2], "LOW");
        g.high = parse_real(t[3], "HIGH");
        if (!(g.low < g.high)) fail("uniform needs LOW < HIGH");
        const double largest = std::max(std::fabs(g.low), std::fabs(g.high));
        if (largest > max_element_magnitude) fail("uniform bounds must lie within ±1e30");
        if (largest < 1e-10)
            fail("uniform bounds this close to 0 make products subnormal in FP32; use |bound| ≥ 1e-10");
    } else {
        g.low = static_cast<double>(parse_integer(t[2], "LOW"));
        g.high = static_cast<double>(parse_integer(t[3], "HIGH"));
        if (g.low > g.high) fail("integers needs LOW <= HIGH");
        if (g.low == 0 && g.high == 0) fail("integers 0 0 is all zeros, which hides unwritten output");
        if (std::max(std::fabs(g.low), std::fabs(g.high)) > max_integer_magnitude)
            fail("integer bounds must lie within ±2^24 (exact in FP32)");
    }
}

std::vector<double> Parser::read_matrix(const char *label, int rows, int cols, std::vector<int> *row_lines) {
    if (static_cast<long long>(rows) * cols > 1'000'000)
        fail(std::string("explicit matrix ") + label + " is larger than 10^6 elements; use a generated case");
    std::vector<double> values;
    values.reserve(static_cast<std::size_t>(rows) * cols);
    std::vector<std::string> t;
    for (int r = 0; r < rows; ++r) {
        if (!next_line(t))
            fail(std::string("matrix ") + label + " ends after " + std::to_string(r) + " of " + std::to_string(rows) +
                 " rows");
        if (t.size() != static_cast<std::size_t>(cols))
            fail(std::string("row ") + std::to_string(r + 1) + " of " + label + " has " + std::to_string(t.size()) +
                 " numbers, expected " + std::to_string(cols));
        for (const auto &token : t) values.push_back(parse_real(token, "a matrix element"));
        if (row_lines) row_lines->push_back(line_number_);
    }
    return values;
}

// |C|ᵢⱼ ≤ N·max|A|·max|B|: keep that well inside FP32's range (3.4e38), so a correct
// kernel never overflows and an Inf in C is always the solution's.
void Parser::check_range(const TestCase &tc, double max_a, double max_b) const {
    const double worst = static_cast<double>(tc.N) * max_a * max_b;
    if (worst > max_result_magnitude) {
        std::ostringstream s;
        s << "the result could overflow FP32: N·max|A|·max|B| = " << worst << " exceeds " << max_result_magnitude;
        fail(s.str());
    }
}

void Parser::check_shape_is_judgeable(const TestCase &tc) const {
    const double M = tc.M, N = tc.N, K = tc.K;
    const double bytes = 4 * (M * N + N * K + M * K);
    std::ostringstream s;
    if (bytes > max_matrices_bytes) {
        s << "A, B and C of this shape need " << bytes / 1e9
          << " GB in FP32, more than any GPU holds (at most 1 TiB); choose a smaller shape";
        fail_at(shape_line_, s.str());
    }
    if (tc.time_limit_s == 0 && default_time_limit_s(tc.M, tc.N, tc.K) > max_time_limit_s) {
        s << "the default time limit of this shape would be " << default_time_limit_s(tc.M, tc.N, tc.K)
          << " s per call (1 s + 2·M·N·K at 100 GFLOP/s), past the 600 s a case may take; add `time_limit "
             "SECONDS` or choose a smaller shape";
        fail_at(shape_line_, s.str());
    }
}

void Parser::check_complete(TestCase &tc) {
    if (!seen_.count("shape")) fail("missing `" + shape_usage() + "`");
    check_shape_is_judgeable(tc);
    if (!has_data_) fail("missing `data` line");
    if (data_explicit_) {
        if (a_.empty() || b_.empty()) fail("an explicit case needs both an `A` and a `B` block");
        auto as_floats = [this](const std::vector<double> &v, const char *label) {
            std::vector<float> f(v.size());
            for (std::size_t i = 0; i < v.size(); ++i) {
                const double magnitude = std::fabs(v[i]);
                if (magnitude > max_element_magnitude) fail(std::string("an element of ") + label + " exceeds ±1e30");
                if (magnitude != 0 && magnitude < min_element_magnitude)
                    fail(std::string("an element of ") + label +
                         " is non-zero but below 1e-15 (products would be subnormal)");
                f[i] = static_cast<float>(v[i]);
            }
            return f;
        };
        tc.has_explicit_data = true;
        tc.A = as_floats(a_, "A");
        tc.B = as_floats(b_, "B");
        tc.expected_C = std::move(c_);
        if (std::all_of(tc.A.begin(), tc.A.end(), [](float x) { return x == 0; }) ||
            std::all_of(tc.B.begin(), tc.B.end(), [](float x) { return x == 0; }))
            fail("an all-zero A or B hides unwritten output; give it non-zero data");
        auto largest = [](const std::vector<float> &v) {
            double m = 0;
            for (float x : v) m = std::max(m, static_cast<double>(std::fabs(x)));
            return m;
        };
        check_range(tc, largest(tc.A), largest(tc.B));
    } else {
        if (!has_seed_) fail("a generated case needs `seed S`");
        if (!a_.empty() || !b_.empty() || !c_.empty()) fail("matrix blocks are only allowed with `data explicit`");
        check_range(tc, max_magnitude(tc.generator), max_magnitude(tc.generator));
    }
    // A scalar the case does not set takes the problem's default; one with neither is an error.
    for (const auto &[role, value] : problem_.default_scalars()) tc.scalars.emplace(role, value);
    for (const auto &parameter : problem_.parameters) {
        if (parameter.kind != ParameterType::Float) continue;
        for (const auto &[role, name] : problem_.roles)
            if (name == parameter.name && !tc.scalars.count(role))
                fail("missing `scalar " + role + " VALUE` (the problem gives " + role + " no default)");
    }
    tc.epilogue = problem_.epilogue(tc.scalars);
    if (problem_.layout({}).element_bytes == 1) check_int8(tc);
}

// An int8 problem's case: integers in int8's range, zero points that are int8 values, scales
// an FP32 float holds (not 0), and sums that int32 holds whatever the data: the problem
// accumulates in int32, so a case past that would judge a sum the problem does not define.
void Parser::check_int8(const TestCase &tc) const {
    double low = tc.generator.low, high = tc.generator.high;
    if (tc.has_explicit_data) {
        const auto [a_low, a_high] = std::minmax_element(tc.A.begin(), tc.A.end());
        const auto [b_low, b_high] = std::minmax_element(tc.B.begin(), tc.B.end());
        low = std::min(*a_low, *b_low);
        high = std::max(*a_high, *b_high);
        for (const auto *values : {&tc.A, &tc.B})
            for (float v : *values)
                if (v != std::rint(v))
                    fail_at(data_line_, formatted("an int8 problem's A and B hold integers; %g is not", v));
    } else if (tc.generator.distribution != Distribution::Integers) {
        fail_at(data_line_, "an int8 problem's data is `data integers LOW HIGH` (or explicit integers), within "
                            "[-128, 127]");
    }
    if (low < -128 || high > 127)
        fail_at(data_line_,
                formatted("an int8 problem's data must lie within [-128, 127]; this case's spans [%g, %g]", low, high));
    const auto scalar = [&](const char *role) {
        const auto found = tc.scalars.find(role);
        return found == tc.scalars.end() ? 0.0 : found->second;
    };
    for (const char *role : {"zero_point_A", "zero_point_B", "zero_point_C"}) {
        const double z = scalar(role);
        if (z != std::rint(z) || z < -128 || z > 127) fail(std::string(role) + " must be an integer in [-128, 127]");
    }
    for (const char *role : {"scale_A", "scale_B", "scale_C"}) {
        const float s = static_cast<float>(scalar(role));
        if (!std::isfinite(s) || s == 0) fail(std::string(role) + " must be a non-zero number that FP32 holds");
    }
    const auto widest = [&](double zero_point) {
        return std::max(std::fabs(low - zero_point), std::fabs(high - zero_point));
    };
    const double largest_sum =
        static_cast<double>(tc.N) * widest(scalar("zero_point_A")) * widest(scalar("zero_point_B"));
    if (largest_sum > 2147483647.0)
        fail_at(shape_line_, "sums of this case could reach " + std::to_string(static_cast<long long>(largest_sum)) +
                                 ", past int32's 2147483647, in which the problem accumulates; use a smaller inner "
                                 "dimension or narrower data");
}

std::string Parser::shape_usage() const {
    std::string usage = "shape";
    for (const auto &dim : problem_.dims) usage += " " + dim;
    return usage;
}

// The default problem's `shape M N K` is the product's own; another problem's shape is in
// its own dims, in their order, and makes the product's M, N and K (problem.hpp).
void Parser::parse_shape(const std::vector<std::string> &t, TestCase &tc) {
    const std::string usage = shape_usage();
    expect_count(t, problem_.dims.size() + 1, usage.c_str());
    tc.dims.clear();
    for (std::size_t i = 0; i < problem_.dims.size(); ++i)
        tc.dims.push_back(parse_dimension(t[i + 1], problem_.dims[i].c_str()));
    const auto shape = problem_.gemm_shape(tc.dims);
    const char *axes[] = {"M", "N", "K"};
    for (int axis = 0; axis < 3; ++axis)
        if (shape[axis] > std::numeric_limits<int>::max())
            fail(std::string("the product's ") + axes[axis] + " = " + std::to_string(shape[axis]) +
                 " exceeds 2^31 - 1");
    tc.M = static_cast<int>(shape[0]);
    tc.N = static_cast<int>(shape[1]);
    tc.K = static_cast<int>(shape[2]);
    tc.generator.structure_a = problem_.structure("A");
    tc.generator.structure_b = problem_.structure("B");
    tc.generator.mask_density = problem_.mask_density();
    tc.layout = problem_.layout(tc.dims);
    tc.passes_nonzeros = problem_.roles.count("nnz") > 0;
    tc.site_tolerance = problem_.site_tolerance();
    const long long most_rows = std::max<long long>({tc.M, tc.N, tc.K}); // of any operand, stored or checked
    if (tc.layout.batch * most_rows > std::numeric_limits<int>::max())
        fail("the batch's " + std::to_string(tc.layout.batch) + " products of " + std::to_string(most_rows) +
             " rows exceed 2^31 - 1 rows");
    if ((tc.generator.structure_a == Structure::Symmetric && tc.M != tc.N) ||
        (tc.generator.structure_b == Structure::Symmetric && tc.N != tc.K))
        fail("a symmetric operand must be square");
    if (tc.layout.a_diagonal && tc.M != tc.N) fail("a diagonal A makes a square product's A: its M and N differ");
}

TestCase Parser::parse(const std::string &name) {
    TestCase tc;
    tc.name = name;
    tc.path = path_;
    tc.category = name.substr(0, name.find('/'));
    std::vector<std::string> t;
    while (next_line(t)) {
        const std::string key = t[0];
        const bool is_block = key == "A" || key == "B" || key == "C";
        if (!seen_.insert(key).second) fail("`" + key + "` appears twice");
        if (key == "shape") {
            shape_line_ = line_number_;
            parse_shape(t, tc);
        } else if (key == "data") {
            parse_data(t, tc);
            has_data_ = true;
        } else if (key == "seed") {
            expect_count(t, 2, "seed S");
            const long long s = parse_integer(t[1], "seed");
            if (s < 0 || s >= (1LL << 59)) fail("seed must be between 0 and 2^59 - 1");
            tc.generator.seed = static_cast<std::uint64_t>(s);
            has_seed_ = true;
        } else if (key == "time_limit") {
            expect_count(t, 2, "time_limit SECONDS");
            tc.time_limit_s = parse_real(t[1], "time_limit");
            if (tc.time_limit_s <= 0 || tc.time_limit_s > max_time_limit_s)
                fail("time_limit must be in (0, 600] seconds");
        } else if (key == "scalar") {
            seen_.erase(key); // one line per scalar
            expect_count(t, 3, "scalar NAME VALUE");
            if (!problem_.roles.count(t[1])) fail("this problem has no scalar " + t[1]);
            if (!tc.scalars.emplace(t[1], parse_real(t[2], "the scalar's value")).second)
                fail("scalar " + t[1] + " appears twice");
        } else if (is_block) {
            if (!problem_.is_default) fail("explicit matrices are written for the default problem's cases only");
            if (t.size() != 1) fail("a matrix block starts with `" + key + "` alone on its line");
            if (!seen_.count("shape")) fail("`shape` must come before the matrix blocks");
            if (!data_explicit_) fail("matrix blocks need `data explicit` before them");
            if (key == "A") a_ = read_matrix("A", tc.M, tc.N);
            if (key == "B") b_ = read_matrix("B", tc.N, tc.K);
            if (key == "C") c_ = read_matrix("C", tc.M, tc.K, &tc.expected_C_row_lines);
        } else {
            fail("unknown key `" + key + "` (expected shape, data, seed, time_limit, " +
                 (problem_.is_default ? "A, B or C)" : "or scalar)"));
        }
    }
    ++line_number_; // problems of the file as a whole are reported after its last line
    check_complete(tc);
    return tc;
}

} // namespace

double default_time_limit_s(int M, int N, int K, long long batch) {
    return 1.0 + static_cast<double>(batch) * flop_count(M, N, K) / 100e9;
}

CaseInputs case_inputs(const TestCase &tc, int input_set) {
    if (tc.has_explicit_data && input_set == checked_input_set) return {tc.A, tc.B};
    return {generate_matrix(tc.generator, input_set, MatrixId::A, tc.M, tc.N),
            generate_matrix(tc.generator, input_set, MatrixId::B, tc.N, tc.K)};
}

double time_limit_s(const TestCase &tc) {
    return tc.time_limit_s > 0 ? tc.time_limit_s : default_time_limit_s(tc.M, tc.N, tc.K, tc.layout.batch);
}

TestCase parse_testcase(const std::string &text, const std::string &path, const std::string &name,
                        const ProblemDescriptor &problem) {
    return Parser(without_utf8_bom(text), path, problem).parse(name);
}

TestCase parse_testcase(const std::string &text, const std::string &path, const std::string &name) {
    return parse_testcase(text, path, name, default_problem());
}

TestCase parse_option_case(const std::vector<OptionLine> &lines, const std::string &name,
                           const std::string &whole_case_options, const ProblemDescriptor *problem) {
    std::string text;
    for (const auto &l : lines) text += l.line + "\n";
    try {
        return problem ? parse_testcase(text, "options", name, *problem) : parse_testcase(text, "options", name);
    } catch (const TestcaseError &e) {
        const std::string prefix = "options:" + std::to_string(e.line) + ": ";
        const std::string why = std::string(e.what()).substr(prefix.size());
        const bool one_line = e.line >= 1 && e.line <= static_cast<int>(lines.size());
        throw UsageError((one_line ? lines[e.line - 1].option : whole_case_options) + ": " + why);
    }
}

namespace {

// Why `path` is not a testcase file that can be read, or nothing: a dangling symbolic link,
// a loop of them, a folder or a FIFO named *.case is refused before it is opened (a FIFO
// would block the read).
std::optional<std::string> not_a_case_file(const std::string &path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status own = fs::symlink_status(path, ec);
    if (ec) return "cannot be read: " + ec.message();
    const fs::file_status target = fs::status(path, ec);
    if (fs::is_symlink(own) && ec) {
        if (ec == std::errc::too_many_symbolic_link_levels) return std::string("is a loop of symbolic links");
        std::error_code read_ec;
        const auto to = fs::read_symlink(path, read_ec).string();
        return "is a symbolic link to " + (read_ec ? std::string("a missing file") : to + ", which does not exist");
    }
    if (ec) return "cannot be read: " + ec.message();
    if (fs::is_directory(target)) return std::string("is a folder, not a testcase file");
    if (!fs::is_regular_file(target)) return std::string("is not a regular file (a FIFO, socket or device)");
    return std::nullopt;
}

} // namespace

std::optional<std::string> expected_output_mismatch(const TestCase &tc, const Reference &ref) {
    if (tc.expected_C.empty()) return std::nullopt;
    for (std::size_t i = 0; i < tc.expected_C.size(); ++i) {
        // A setter writes a handful of decimal digits: allow that rounding on top of the bound.
        const double tolerance = elementwise_bound(tc.N, ref.magnitude[i]) + 1e-6 * std::fabs(ref.value[i]);
        if (std::fabs(tc.expected_C[i] - ref.value[i]) > tolerance) {
            std::ostringstream s;
            s.precision(9);
            const std::size_t row = i / tc.K;
            s << tc.path << ":" << (row < tc.expected_C_row_lines.size() ? tc.expected_C_row_lines[row] : 0)
              << ": expected C at row " << i / tc.K << ", col " << i % tc.K << " is " << tc.expected_C[i]
              << " but A·B is " << ref.value[i];
            return s.str();
        }
    }
    return std::nullopt;
}

TestCase load_testcase(const std::string &path, const std::string &suite_root) {
    if (const auto why = not_a_case_file(path)) throw TestcaseError(escape_for_terminal(path + ":0: " + *why));
    const auto text = read_text_file(path);
    if (!text) throw TestcaseError(escape_for_terminal(path) + ":0: cannot be read");
    auto name = std::filesystem::path(path).lexically_relative(suite_root).replace_extension("").generic_string();
    if (name.empty() || name.rfind("..", 0) == 0) name = std::filesystem::path(path).stem().string();
    const ProblemDescriptor *problem = nullptr;
    try {
        problem = &suite_problem(suite_root);
    } catch (const ProblemError &e) {
        throw TestcaseError(e.what());
    }
    TestCase tc = parse_testcase(*text, path, name, *problem);
    // The same check wherever a file is loaded (the judge, --list, case show, case validate):
    // a wrong expected C is the file's error, at that row.
    if (tc.expected_C.empty()) return tc;
    if (auto why = expected_output_mismatch(tc, reference_on_cpu(tc.A, tc.B, tc.M, tc.N, tc.K)))
        throw TestcaseError(escape_for_terminal(*why));
    return tc;
}

bool case_selected(const std::string &case_name, const std::string &selector) {
    if (selector.empty()) return false;
    if (case_name == selector) return true;
    if (case_name.substr(0, case_name.find('/')) == selector) return true;
    return case_name.size() > selector.size() &&
           case_name.compare(case_name.size() - selector.size(), selector.size(), selector) == 0 &&
           case_name[case_name.size() - selector.size() - 1] == '/';
}

std::string unmatched_case_selector(const std::vector<std::string> &selectors,
                                    const std::vector<std::string> &case_names) {
    for (const auto &selector : selectors) {
        if (std::any_of(case_names.begin(), case_names.end(),
                        [&](const std::string &name) { return case_selected(name, selector); }))
            continue;
        // What a selector may be: a whole name, its category, and each tail after a `/`.
        std::vector<std::string> selectable;
        for (const auto &name : case_names) {
            selectable.push_back(name);
            selectable.push_back(name.substr(0, name.find('/')));
            for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
                selectable.push_back(name.substr(slash + 1));
        }
        std::sort(selectable.begin(), selectable.end());
        selectable.erase(std::unique(selectable.begin(), selectable.end()), selectable.end());
        const std::string text = "--case " + escape_for_terminal(selector) + ": no testcase has this name";
        if (const auto near = nearest_name(selector, selectable)) return text + "; did you mean " + *near + "?";
        return text + " (./judge --list names them)";
    }
    return "";
}

std::vector<std::string> case_files_below(const std::string &folder) {
    std::vector<std::string> paths;
    // A folder below with its own problem.json is another problem's suite, not this one's.
    for (auto entry = std::filesystem::recursive_directory_iterator(folder);
         entry != std::filesystem::recursive_directory_iterator(); ++entry) {
        std::error_code ec;
        if (entry->is_directory(ec) && std::filesystem::exists(problem_file_of(entry->path().string()), ec)) {
            entry.disable_recursion_pending();
            continue;
        }
        if (entry->path().extension() == ".case") paths.push_back(entry->path().string());
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

Suite load_suite_leniently(const std::string &suite_root) {
    namespace fs = std::filesystem;
    Suite suite;
    const std::string shown_root = escape_for_terminal(suite_root);
    std::error_code ec;
    if (!fs::is_directory(suite_root, ec)) return {{}, {shown_root + ":0: is not a folder of testcases"}};
    try {
        suite_problem(suite_root);
    } catch (const ProblemError &e) {
        return {{}, {e.what()}};
    }
    std::vector<std::string> paths;
    try {
        paths = case_files_below(suite_root);
    } catch (const fs::filesystem_error &e) {
        return {{}, {escape_for_terminal(e.path1().string()) + ":0: cannot be listed: " + e.code().message()}};
    }
    for (const auto &path : paths) {
        try {
            suite.cases.push_back(load_testcase(path, suite_root));
        } catch (const TestcaseError &e) {
            suite.problems.push_back(e.what());
        }
    }
    std::stable_sort(suite.cases.begin(), suite.cases.end(), [](const TestCase &a, const TestCase &b) {
        return category_rank(a.category) < category_rank(b.category);
    });
    if (paths.empty()) suite.problems.push_back(shown_root + ":0: holds no *.case files");
    return suite;
}

std::vector<TestCase> load_suite(const std::string &suite_root) {
    Suite suite = load_suite_leniently(suite_root);
    if (suite.problems.empty()) return std::move(suite.cases);
    std::string errors;
    for (const auto &p : suite.problems) errors += (errors.empty() ? "" : "\n") + p;
    throw TestcaseError(errors);
}

std::string case_size_text(const TestCase &tc, const std::vector<std::string> &dim_names) {
    const std::string product = shape_text(shape_of(tc), "×");
    if (tc.dims.empty() || dim_names.size() != tc.dims.size()) return product;
    std::string sizes, names;
    for (std::size_t i = 0; i < tc.dims.size(); ++i) {
        sizes += (i ? "×" : "") + std::to_string(tc.dims[i]);
        names += (i ? "×" : "") + dim_names[i];
    }
    if (sizes == product && names == "M×N×K") return product; // the default problem's own
    return sizes + " (" + names + ")" + (sizes == product ? "" : ", product " + product);
}

} // namespace gemm
