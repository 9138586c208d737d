// Testcase authoring: `case new` writes what the parser reads back, never overwrites and
// refuses bad names; `case import` and `case export` round-trip A, B and C bit for bit;
// `case show` prints small matrices and summarizes large ones; `case validate` reports
// exactly the bad files.
#include <doctest/doctest.h>

#include "common/rng.hpp"
#include "test_support.hpp"
#include "testcases/case_tools.hpp"
#include "testcases/problem.hpp"
#include "verification/reference.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace gemm;
using gemm::test::contains;
using gemm::test::starts_with;
namespace fs = std::filesystem;

namespace {

const std::string shipped_suite = std::string(GEMM_SOURCE_DIR) + "/testcases";

// A fresh, empty folder below the system's temporary folder, removed when the test ends.
struct TempDir {
    fs::path path;
    TempDir() {
        static std::atomic<int> counter{0};
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path = fs::temp_directory_path() /
               ("gemm-case-tools-test-" + std::to_string(stamp) + "-" + std::to_string(counter++));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string str() const { return path.string(); }
    std::string at(const std::string &relative) const { return (path / relative).string(); }
    std::string write(const std::string &relative, const std::string &text) const {
        const auto file = path / relative;
        fs::create_directories(file.parent_path());
        std::ofstream(file) << text;
        return file.string();
    }
};

std::string read_text(const std::string &path) {
    std::ifstream file(path);
    std::stringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string first_line(const std::string &path) {
    std::ifstream file(path);
    std::string line;
    std::getline(file, line);
    return line;
}

int files_below(const fs::path &folder) {
    int count = 0;
    for (const auto &entry : fs::recursive_directory_iterator(folder)) count += entry.is_regular_file();
    return count;
}

// The message of the error that `action` throws (a bad file's TestcaseError, a bad
// request's UsageError); "" when none is thrown.
template <typename Action> std::string refusal(Action action) {
    try {
        action();
    } catch (const std::runtime_error &e) {
        return e.what();
    }
    return "";
}

// Bit for bit, so that -0 against 0 or a last-bit difference is caught.
bool same_bits(const std::vector<float> &a, const std::vector<float> &b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

std::vector<float> as_floats(const std::vector<double> &values) { return {values.begin(), values.end()}; }

// C as export writes it: the FP64 reference rounded to float.
std::vector<float> reference_as_floats(const TestCase &tc) {
    const auto inputs = case_inputs(tc, checked_input_set);
    return as_floats(reference_on_cpu(inputs.A, inputs.B, tc.M, tc.N, tc.K).value);
}

NewCaseRequest request(const std::string &name, int M, int N, int K, const std::string &data = "uniform -1 1") {
    NewCaseRequest r;
    r.name = name;
    r.dims = {M, N, K};
    r.data = data;
    return r;
}

// The lines of `text` after the line `title`, up to the next line that starts without indent.
std::vector<std::string> block_after(const std::string &text, const std::string &title) {
    std::istringstream in(text);
    std::vector<std::string> block;
    bool inside = false;
    for (std::string line; std::getline(in, line);) {
        if (inside && (line.empty() || line[0] != ' ')) break;
        if (inside) block.push_back(line);
        if (starts_with(line, title)) inside = true;
    }
    return block;
}

} // namespace

TEST_CASE("case new writes a file that load_testcase reads back with the fields it was given") {
    TempDir dir;
    NewCaseRequest r = request("secret/19-my-case", 300, 77, 129, "integers  -4 4");
    r.seed = 19;
    r.time_limit_s = 2.5;
    r.comment = "tall and odd";
    const std::string path = create_generated_case(dir.str(), r);
    CHECK(path == dir.at("secret/19-my-case.case"));
    CHECK(first_line(path) == "# tall and odd");
    const TestCase tc = load_testcase(path, dir.str());
    CHECK(tc.name == "secret/19-my-case");
    CHECK(tc.category == "secret");
    CHECK(tc.M == 300);
    CHECK(tc.N == 77);
    CHECK(tc.K == 129);
    CHECK_FALSE(tc.has_explicit_data);
    CHECK(tc.generator.distribution == Distribution::Integers);
    CHECK(tc.generator.low == -4.0);
    CHECK(tc.generator.high == 4.0);
    CHECK(tc.generator.seed == 19u);
    CHECK(tc.time_limit_s == 2.5);
}

TEST_CASE("case new with the defaults writes uniform -1 1, seed 1, no time limit and no comment") {
    TempDir dir;
    const std::string path = create_generated_case(dir.str(), request("perf/05-x", 64, 32, 16));
    CHECK(first_line(path) == "shape 64 32 16");
    const TestCase tc = load_testcase(path, dir.str());
    CHECK(tc.category == "perf");
    CHECK(tc.generator.distribution == Distribution::Uniform);
    CHECK(tc.generator.low == -1.0);
    CHECK(tc.generator.high == 1.0);
    CHECK(tc.generator.seed == 1u);
    CHECK(tc.time_limit_s == 0.0);
}

TEST_CASE("case new accepts every generated distribution") {
    TempDir dir;
    const auto normal =
        load_testcase(create_generated_case(dir.str(), request("secret/n", 3, 3, 3, "normal")), dir.str());
    CHECK(normal.generator.distribution == Distribution::Normal);
    const auto mixed =
        load_testcase(create_generated_case(dir.str(), request("secret/m", 3, 3, 3, "mixed")), dir.str());
    CHECK(mixed.generator.distribution == Distribution::Mixed);
    const auto sparse =
        load_testcase(create_generated_case(dir.str(), request("secret/s", 3, 3, 3, "sparse 0.25")), dir.str());
    CHECK(sparse.generator.distribution == Distribution::Sparse);
    CHECK(sparse.generator.density == 0.25);
}

TEST_CASE("case new never overwrites an existing case") {
    TempDir dir;
    const std::string path = create_generated_case(dir.str(), request("secret/19-x", 2, 2, 2));
    const std::string before = read_text(path);
    const auto why = refusal([&] { create_generated_case(dir.str(), request("secret/19-x", 5, 5, 5, "normal")); });
    CHECK(why == path + ": already exists; a case is never overwritten, choose another name");
    CHECK(read_text(path) == before);
}

TEST_CASE("case new refuses a name without a category folder or leaving the suite root") {
    TempDir dir;
    CHECK(contains(refusal([&] { create_generated_case(dir.str(), request("19-no-folder", 2, 2, 2)); }),
                   "needs a category folder"));
    CHECK(contains(refusal([&] { create_generated_case(dir.str(), request("../secret/x", 2, 2, 2)); }), "`..`"));
    CHECK(contains(refusal([&] { create_generated_case(dir.str(), request("secret/../../x", 2, 2, 2)); }), "`..`"));
    for (const char *bad : {"", "/tmp/secret/x", "secret/", "secret//x", "secret/./x", "secret/x.case", "secret/a\nb"})
        CHECK_MESSAGE(
            starts_with(refusal([&] { create_generated_case(dir.str(), request(bad, 2, 2, 2)); }), "case name `"), bad);
    CHECK(files_below(dir.path) == 0);
}

TEST_CASE("case new in a problem's suite writes the shape in that problem's dims, and refuses another count") {
    TempDir dir;
    std::filesystem::copy_file(shipped_suite + "/tensara/matmul-3d/problem.json", dir.path / "problem.json");
    NewCaseRequest r;
    r.name = "secret/90-mine";
    r.dims = {2, 3, 4};
    CHECK(contains(refusal([&] { create_generated_case(dir.str(), r); }),
                   "--shape: tensara/matmul-3d takes 4 sizes (n×m×k×l), not 3"));
    CHECK(files_below(dir.path) == 1); // the problem.json alone
    r.dims = {2, 3, 4, 5};
    const std::string path = create_generated_case(dir.str(), r);
    std::ifstream written(path);
    std::stringstream text;
    text << written.rdbuf();
    CHECK(contains(text.str(), "shape 2 3 4 5\n"));
    const TestCase tc = load_testcase(path, dir.str());
    CHECK(tc.M == 6); // n·m rows of the flattened product
    CHECK(tc.N == 4);
    CHECK(tc.K == 5);
}

TEST_CASE("a case's size is said in its problem's dims, with the product they make, and as M×N×K by default") {
    const std::string folder = shipped_suite + "/tensara/matmul-3d";
    const TestCase slices = load_testcase(folder + "/sample/03-two-slices.case", folder);
    CHECK(case_size_text(slices, suite_problem(folder).dims) == "2×3×4×5 (n×m×k×l), product 6×4×5");
    const std::string shown = show_case(slices, suite_problem(folder).dims);
    CAPTURE(shown);
    CHECK(contains(shown, "size"));
    CHECK(contains(shown, " 2×3×4×5 (n×m×k×l), product 6×4×5\n"));
    const std::string int8 = shipped_suite + "/leetgpu/32-int8-quantized-matmul";
    const std::string scaled = show_case(load_testcase(int8 + "/secret/08-sums-past-2-24.case", int8));
    CAPTURE(scaled);
    CHECK(contains(scaled, "\nscale_C       300000\n"));
    CHECK(contains(scaled, "\nzero_point_A  -128\n"));
    const TestCase seed = load_testcase(shipped_suite + "/sample/03-integers.case", shipped_suite);
    CHECK(case_size_text(seed, suite_problem(shipped_suite).dims) == "5×7×3");
    CHECK_FALSE(contains(show_case(seed), "  size "));
    const auto listed = gemm::run_captured(
        {gemm::test::judge_program, "--problem", "tensara/matmul-3d", "--list", "--case", "03-two-slices"});
    CHECK(listed.exit_code == 0);
    CHECK(listed.output == "sample/03-two-slices  2×3×4×5 (n×m×k×l), product 6×4×5\n");
}

TEST_CASE("case new refuses invalid data words and fields before writing anything, naming the option") {
    TempDir dir;
    auto create = [&](NewCaseRequest r) { return refusal([&] { create_generated_case(dir.str(), r); }); };
    // The hint in the option's syntax, not the file's (`data …`).
    CHECK(create(request("secret/x", 2, 2, 2, "gaussian")) ==
          "--data 'gaussian': expected 'uniform LOW HIGH', 'integers LOW HIGH', normal, mixed or 'sparse DENSITY'");
    CHECK(starts_with(create(request("secret/x", 2, 2, 2, "uniform 1")), "--data 'uniform 1': expected 'uniform"));
    CHECK(create(request("secret/x", 2, 2, 2, "uniform 1 -1")) == "--data 'uniform 1 -1': uniform needs LOW < HIGH");
    CHECK(contains(create(request("secret/x", 2, 2, 2, "explicit")), "judge case import"));
    CHECK(contains(create(request("secret/x", 2, 2, 2, "uniform -1 1\nseed 5")), "single line"));
    CHECK(contains(create(request("secret/x", 2, 2, 2, "uniform -1 1 # x")), "`#`"));
    CHECK(create(request("secret/x", 0, 2, 2)) == "--shape 0 2 2: M must be between 1 and 2147483647, got 0");
    CHECK(contains(create(request("secret/x", 2147483647, 2147483647, 2147483647)), "--shape 2147483647 "));
    NewCaseRequest big_seed = request("secret/x", 2, 2, 2);
    big_seed.seed = 1ull << 59;
    CHECK(create(big_seed) == "--seed 576460752303423488: seed must be between 0 and 2^59 - 1");
    NewCaseRequest no_time = request("secret/x", 2, 2, 2);
    no_time.time_limit_s = 0;
    CHECK(create(no_time) == "--time-limit 0: time_limit must be in (0, 600] seconds");
    NewCaseRequest two_line_comment = request("secret/x", 2, 2, 2);
    two_line_comment.comment = "one\nshape 9 9 9";
    CHECK(contains(create(two_line_comment), "single line"));
    CHECK(files_below(dir.path) == 0);
}

TEST_CASE("case import of a hand-written pair round-trips through the case file") {
    TempDir dir;
    // Any line layout: a row split over lines, a number alone on a line, a plus sign.
    const std::string in = dir.write("p.in", "2 3 2\n1 2\n3 4 +5 -6\n0.1 0\n0 1e-3\n-2.5\n  7\n");
    const std::string ans = dir.write("p.ans", "-7.4 21.002\n15.4 -41.995\n");
    const std::string path = import_pair(dir.at("suite"), "sample/04-imported", in, ans);
    CHECK(path == dir.at("suite/sample/04-imported.case"));
    const TestCase tc = load_testcase(path, dir.at("suite"));
    CHECK(tc.name == "sample/04-imported");
    CHECK(tc.has_explicit_data);
    CHECK(tc.M == 2);
    CHECK(tc.N == 3);
    CHECK(tc.K == 2);
    CHECK(same_bits(tc.A, {1, 2, 3, 4, 5, -6}));
    CHECK(same_bits(tc.B, {0.1f, 0, 0, 1e-3f, -2.5f, 7}));
    CHECK(same_bits(as_floats(tc.expected_C), {-7.4f, 21.002f, 15.4f, -41.995f}));
    CHECK(validate_path(path, dir.at("suite")).empty());
}

TEST_CASE("case import without an .ans writes A and B only") {
    TempDir dir;
    const std::string in = dir.write("p.in", "1 2 1 0.5 -0.25 3 4");
    const TestCase tc = load_testcase(import_pair(dir.str(), "secret/20-x", in, ""), dir.str());
    CHECK(same_bits(tc.A, {0.5f, -0.25f}));
    CHECK(same_bits(tc.B, {3, 4}));
    CHECK(tc.expected_C.empty());
}

TEST_CASE("case import refuses an .ans that disagrees with A·B, naming the .ans file and line") {
    TempDir dir;
    const std::string in = dir.write("p.in", "2 3 2\n1 2 3\n4 5 -6\n0.1 0\n0 1e-3\n-2.5 7\n");
    const std::string ans = dir.write("p.ans", "-7.4 21.002\n15.4 -41.9\n");
    const auto why = refusal([&] { import_pair(dir.at("suite"), "sample/04-x", in, ans); });
    CHECK(starts_with(why, ans + ":2: expected C at row 1, col 1 is -41.9"));
    CHECK_FALSE(fs::exists(dir.at("suite/sample/04-x.case")));
}

TEST_CASE("case import names the file and line of what is wrong in the pair") {
    TempDir dir;
    auto import_in = [&](const std::string &in_text, const std::string &ans_text = "") {
        const std::string in = dir.write("p.in", in_text);
        const std::string ans = ans_text.empty() ? "" : dir.write("p.ans", ans_text);
        return refusal([&] { import_pair(dir.at("suite"), "secret/x", in, ans); });
    };
    const std::string in = dir.at("p.in"), ans = dir.at("p.ans");
    CHECK(import_in("2 2 2\n1 2\n3 4\n5 6 7\n") == in + ":4: the file ends after 3 of the 2×2 = 4 numbers of B");
    CHECK(import_in("1 1 1\n2\nx3\n") == in + ":3: `x3` in B is not a finite number");
    CHECK(import_in("1 1 1\n2\n1e39\n") == in + ":3: `1e39` in B is beyond FP32's range");
    CHECK(starts_with(import_in("\n1001 1000 1\n"), in + ":2: A would be 1001×1000 = 1001000 elements"));
    CHECK(starts_with(import_in("1 1000 1001\n"), in + ":1: B would be 1000×1001"));
    CHECK(starts_with(import_in("1001 1 1001\n", "1\n"), in + ":1: C would be 1001×1001"));
    CHECK(import_in("1 1 1\n1 2 3\n") == in + ":2: unexpected `3` after the M·N + N·K numbers of A and B");
    CHECK(import_in("2 0 2\n") == in + ":1: N must be a whole number from 1 to 2147483647, got `0`");
    CHECK(import_in("") == in + ":1: expected `M N K` first; the file ends before M");
    CHECK(starts_with(import_in("1 1 1\n0\n1\n"), in + ": does not make a valid case: an all-zero A or B"));
    CHECK(import_in("1 1 2\n1\n1 2\n", "1\n") == ans + ":1: the file ends after 1 of the 1×2 = 2 numbers of C");
    CHECK(import_in("1 1 1 1 1", "1 1") == ans + ":1: unexpected `1` after the M·K numbers of C");
    CHECK(refusal([&] { import_pair(dir.str(), "secret/y", dir.at("missing.in"), ""); }) ==
          dir.at("missing.in") + ":0: cannot be read");
    CHECK_FALSE(fs::exists(dir.at("suite")));
}

TEST_CASE("case export then import of an explicit case gives the same A, B and C bit for bit") {
    TempDir dir;
    const TestCase tc = load_testcase(shipped_suite + "/sample/02-small-explicit.case", shipped_suite);
    const auto [in, ans] = export_pair(tc, dir.at("out"));
    CHECK(in == dir.at("out/02-small-explicit.in"));
    CHECK(ans == dir.at("out/02-small-explicit.ans"));
    CHECK(first_line(in) == "2 3 4");
    const TestCase back = load_testcase(import_pair(dir.at("suite"), "sample/02-again", in, ans), dir.at("suite"));
    CHECK(same_bits(back.A, tc.A));
    CHECK(same_bits(back.B, tc.B));
    CHECK(same_bits(as_floats(back.expected_C), reference_as_floats(tc)));
    CHECK(same_bits(as_floats(back.expected_C), as_floats(tc.expected_C))); // exact for this sample
}

TEST_CASE("case export then import of small generated cases gives the same A, B and C bit for bit") {
    TempDir dir;
    int n = 0;
    // mixed spans 2^-20 … 2^20: every float digit must survive the text.
    for (const char *data : {"uniform -1 1", "integers -4 4", "normal", "mixed", "sparse 0.6"}) {
        CAPTURE(data);
        const std::string name = "secret/g" + std::to_string(n++);
        const TestCase tc = load_testcase(create_generated_case(dir.str(), request(name, 7, 5, 9, data)), dir.str());
        const auto [in, ans] = export_pair(tc, dir.at("out"));
        const TestCase back = load_testcase(import_pair(dir.at("suite"), name, in, ans), dir.at("suite"));
        const auto inputs = case_inputs(tc, checked_input_set);
        CHECK(same_bits(back.A, inputs.A));
        CHECK(same_bits(back.B, inputs.B));
        CHECK(same_bits(as_floats(back.expected_C), reference_as_floats(tc)));
    }
}

TEST_CASE("case export refuses a case with more than 10^7 elements in a matrix") {
    TempDir dir;
    const auto wide = parse_testcase("shape 1 1 10000001\ndata uniform -1 1\nseed 1\n", "w.case", "perf/w");
    CHECK(refusal([&] { export_pair(wide, dir.str()); }) ==
          "w.case: a matrix of 10000001 elements is more than export writes (10^7 a matrix)");
    const auto tall = parse_testcase("shape 4000 2600 1\ndata uniform -1 1\nseed 1\n", "t.case", "perf/t");
    CHECK(contains(refusal([&] { export_pair(tall, dir.str()); }), "10400000 elements"));
    CHECK(files_below(dir.path) == 0);
}

TEST_CASE("case show of the small explicit sample prints its matrices in aligned columns") {
    const TestCase tc = load_testcase(shipped_suite + "/sample/02-small-explicit.case", shipped_suite);
    const std::string text = show_case(tc);
    CHECK(contains(text, "sample/02-small-explicit"));
    CHECK(contains(text, "2 3 4"));
    CHECK(contains(text, "explicit"));
    for (const char *number : {"-6", "0.5", "0.25", "-3.25", "-13.5", "17", "-24.5"})
        CHECK_MESSAGE(contains(text, number), number);
    CHECK_FALSE(contains(text, "mean"));
    for (const char *title : {"A (", "B (", "expected C ("}) {
        CAPTURE(title);
        const auto rows = block_after(text, title);
        REQUIRE(!rows.empty());
        for (const auto &row : rows) CHECK(row.size() == rows[0].size()); // right-aligned columns
    }
    CHECK(block_after(text, "expected C (")[1] == "  -13.5  17  -2  -24.5");
}

TEST_CASE("case show of a small generated case prints the checked call's inputs") {
    const auto tc = parse_testcase("shape 3 2 4\ndata uniform -1 1\nseed 5\n", "g.case", "secret/g");
    const std::string text = show_case(tc);
    const auto inputs = case_inputs(tc, checked_input_set);
    char first[32];
    std::snprintf(first, sizeof first, "%.9g", static_cast<double>(inputs.A[0]));
    CHECK(contains(text, first));
    CHECK(contains(text, "uniform -1 1"));
    CHECK(block_after(text, "B (").size() == 2);
    CHECK_FALSE(contains(text, "expected C"));
}

TEST_CASE("case show of a 300×300×300 generated case summarizes the matrices") {
    const auto tc = parse_testcase("shape 300 300 300\ndata uniform -1 1\nseed 7\ntime_limit 3\n", "b.case", "perf/b");
    const std::string text = show_case(tc);
    for (const char *word : {"mean", "root-mean-square", "zeros", "min", "max", "300×300", "uniform -1 1", "3 s"})
        CHECK_MESSAGE(contains(text, word), word);
    CHECK(text.size() < 2000); // not 180000 numbers
}

TEST_CASE("case validate finds nothing wrong in the shipped testcases") {
    CHECK(validate_path(shipped_suite, shipped_suite) == std::vector<std::string>{});
    CHECK(validate_path(shipped_suite + "/sample/02-small-explicit.case", shipped_suite).empty());
}

TEST_CASE("case validate of a folder with one bad file returns exactly that file's message") {
    TempDir dir;
    dir.write("secret/good.case", "shape 2 2 2\ndata uniform -1 1\nseed 3\n");
    const std::string bad = dir.write("secret/bad.case", "shape 2 2 2\ndata uniform 1 -1\nseed 3\n");
    dir.write("sample/ok.case", "shape 1 1 1\ndata explicit\nA\n2\nB\n3\nC\n6\n");
    CHECK(validate_path(dir.str(), dir.str()) == std::vector<std::string>{bad + ":2: uniform needs LOW < HIGH"});
}

TEST_CASE("case validate reports an expected C that disagrees with A·B, and unreadable paths") {
    TempDir dir;
    const std::string wrong = dir.write("sample/wrong.case", "shape 1 1 2\ndata explicit\nA\n2\nB\n3 4\nC\n6 9\n");
    const auto problems = validate_path(dir.str(), dir.str());
    REQUIRE(problems.size() == 1);
    CHECK(starts_with(problems[0], wrong + ":8: expected C at row 0, col 1 is 9 but A·B is 8"));
    CHECK(validate_path(dir.at("nothing.case"), dir.str()) ==
          std::vector<std::string>{dir.at("nothing.case") + ":0: cannot be read: No such file or directory"});
    fs::create_directories(dir.path / "empty");
    CHECK(validate_path(dir.at("empty"), dir.str()) ==
          std::vector<std::string>{dir.at("empty") + ":0: holds no *.case files"});
}
