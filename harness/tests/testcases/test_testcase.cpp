// Testcase files: what parses, what is rejected and with which `path:line:` prefix,
// and loading the shipped suite.
#include <doctest/doctest.h>

#include "test_support.hpp"
#include "testcases/problem.hpp"
#include "testcases/testcase.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>
#include <vector>

using namespace gemm;
using gemm::test::contains;
using gemm::test::starts_with;

namespace {

// The message of the TestcaseError that parsing `text` throws; "" when none is thrown.
std::string rejection(const std::string &text, const std::string &path = "t.case") {
    try {
        parse_testcase(text, path, "secret/t");
    } catch (const TestcaseError &e) {
        return e.what();
    }
    return "";
}

// A fresh, empty folder below the system's temporary folder, removed when the test ends.
struct TempDir {
    std::filesystem::path path;
    TempDir() {
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path = std::filesystem::temp_directory_path() / ("gemm-testcase-test-" + std::to_string(stamp));
        std::filesystem::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    void write(const std::string &relative, const std::string &text) const {
        const auto file = path / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file) << text;
    }
};

} // namespace

TEST_CASE("a generated case parses into its shape, distribution and seed") {
    const auto tc = parse_testcase("shape 127 131 137\ndata uniform -1 1\nseed 104\n", "x/04.case", "secret/04-primes");
    CHECK(tc.name == "secret/04-primes");
    CHECK(tc.category == "secret");
    CHECK(tc.path == "x/04.case");
    CHECK(tc.M == 127);
    CHECK(tc.N == 131);
    CHECK(tc.K == 137);
    CHECK(tc.generator.distribution == Distribution::Uniform);
    CHECK(tc.generator.low == -1.0);
    CHECK(tc.generator.high == 1.0);
    CHECK(tc.generator.seed == 104u);
    CHECK_FALSE(tc.has_explicit_data);
    CHECK(tc.A.empty());
    CHECK(tc.B.empty());
    CHECK(tc.expected_C.empty());
    CHECK(tc.time_limit_s == 0.0);
}

TEST_CASE("an integers case parses its bounds as integers") {
    const auto tc = parse_testcase("shape 5 7 3\ndata integers -4 4\nseed 3\n", "p", "sample/03-integers");
    CHECK(tc.generator.distribution == Distribution::Integers);
    CHECK(tc.generator.low == -4.0);
    CHECK(tc.generator.high == 4.0);
    CHECK(tc.generator.seed == 3u);
    CHECK(tc.category == "sample");
}

TEST_CASE("keys may come in any order and uniform bounds may be fractional") {
    const auto tc = parse_testcase("seed 9\ndata uniform -0.5 2.25\nshape 3 2 1\n", "p", "perf/x");
    CHECK(tc.M == 3);
    CHECK(tc.N == 2);
    CHECK(tc.K == 1);
    CHECK(tc.generator.low == -0.5);
    CHECK(tc.generator.high == 2.25);
    CHECK(tc.generator.seed == 9u);
}

TEST_CASE("an explicit case reads A as M×N, B as N×K and the expected C as M×K") {
    const std::string text = "shape 2 3 4\n"
                             "data explicit\n"
                             "A\n"
                             "1   2   3\n"
                             "-4  5  -6\n"
                             "B\n"
                             "1   0  -1   2\n"
                             "0.5 1   0  -3\n"
                             "2  -2   1   0.25\n"
                             "C\n"
                             "8    -4    2   -3.25\n"
                             "-13.5 17  -2  -24.5\n";
    const auto tc = parse_testcase(text, "s.case", "sample/02-small-explicit");
    CHECK(tc.has_explicit_data);
    CHECK(tc.M == 2);
    CHECK(tc.N == 3);
    CHECK(tc.K == 4);
    CHECK(tc.A == std::vector<float>{1, 2, 3, -4, 5, -6});
    CHECK(tc.B == std::vector<float>{1, 0, -1, 2, 0.5f, 1, 0, -3, 2, -2, 1, 0.25f});
    CHECK(tc.expected_C == std::vector<double>{8, -4, 2, -3.25, -13.5, 17, -2, -24.5});
    CHECK(tc.expected_C_row_lines == std::vector<int>{11, 12});
}

TEST_CASE("explicit elements are rounded to float the way a C++ cast rounds them") {
    const auto tc = parse_testcase("shape 1 1 1\ndata explicit\nA\n0.1\nB\n1e-3\n", "p", "sample/r");
    REQUIRE(tc.A.size() == 1);
    CHECK(tc.A[0] == 0.1f);
    CHECK(tc.B[0] == 0.001f);
    CHECK(tc.expected_C.empty());
    CHECK(tc.expected_C_row_lines.empty());
}

TEST_CASE("comments and blank lines are ignored but still counted as lines") {
    const std::string text = "# a whole-line comment\n"
                             "\n"
                             "   \t  \n"
                             "shape 1 1 1   # trailing comment\n"
                             "data explicit#no space before the hash\n"
                             "A\n"
                             "# inside a block\n"
                             "1.5\n"
                             "\n"
                             "B # block header with a comment\n"
                             "-2.25\n";
    const auto tc = parse_testcase(text, "p", "sample/01");
    CHECK(tc.has_explicit_data);
    CHECK(tc.A == std::vector<float>{1.5f});
    CHECK(tc.B == std::vector<float>{-2.25f});
    // The error of line 7 names line 7, though only three lines before it hold data.
    CHECK(starts_with(rejection("# one\n\n# three\nshape 1 1 1\n\n# six\nbogus\n"), "t.case:7: unknown key `bogus`"));
}

TEST_CASE("an unknown key is rejected on its own line") {
    const auto why = rejection("shape 1 1 1\nfoo 3\ndata uniform -1 1\nseed 1\n");
    CHECK(starts_with(why, "t.case:2: "));
    CHECK(contains(why, "unknown key `foo`"));
}

TEST_CASE("keys are case-sensitive") {
    CHECK(starts_with(rejection("Shape 1 1 1\n"), "t.case:1: unknown key `Shape`"));
}

TEST_CASE("a duplicate key is rejected on its second line") {
    CHECK(rejection("shape 1 1 1\ndata uniform -1 1\nshape 2 2 2\nseed 1\n") == "t.case:3: `shape` appears twice");
    CHECK(rejection("shape 1 1 1\nseed 1\ndata uniform -1 1\nseed 2\n") == "t.case:4: `seed` appears twice");
    CHECK(starts_with(rejection("shape 1 1 1\ndata explicit\nA\n1\nA\n2\nB\n1\n"), "t.case:5: `A` appears twice"));
}

TEST_CASE("a missing shape is reported after the last line") {
    CHECK(rejection("data uniform -1 1\nseed 1\n") == "t.case:3: missing `shape M N K`");
    CHECK(rejection("") == "t.case:1: missing `shape M N K`");
}

TEST_CASE("a missing data line is reported after the last line") {
    CHECK(rejection("shape 1 1 1\nseed 1\n") == "t.case:3: missing `data` line");
}

TEST_CASE("a generated case without a seed is rejected") {
    CHECK(rejection("shape 2 2 2\ndata uniform -1 1\n") == "t.case:3: a generated case needs `seed S`");
    CHECK(rejection("shape 2 2 2\ndata integers -1 1\n# end\n") == "t.case:4: a generated case needs `seed S`");
}

TEST_CASE("a seed must be a non-negative integer below 2^59") {
    CHECK(starts_with(rejection("shape 1 1 1\ndata uniform -1 1\nseed -1\n"), "t.case:3: seed must be between"));
    CHECK(starts_with(rejection("shape 1 1 1\ndata uniform -1 1\nseed 576460752303423488\n"),
                      "t.case:3: seed must be between"));
    CHECK(starts_with(rejection("shape 1 1 1\ndata uniform -1 1\nseed 1.5\n"), "t.case:3: seed must be an integer"));
    const auto tc = parse_testcase("shape 1 1 1\ndata uniform -1 1\nseed 576460752303423487\n", "p", "s/x");
    CHECK(tc.generator.seed == 576460752303423487ull);
}

TEST_CASE("a dimension of zero is rejected") {
    CHECK(rejection("shape 0 1 1\n") == "t.case:1: M must be between 1 and 2147483647, got 0");
}

TEST_CASE("a negative dimension is rejected") {
    CHECK(rejection("data uniform -1 1\nshape 1 -5 1\n") == "t.case:2: N must be between 1 and 2147483647, got -5");
}

TEST_CASE("a dimension that is not a whole number is rejected") {
    CHECK(rejection("shape 1 x 1\n") == "t.case:1: N must be an integer, got `x`");
    CHECK(rejection("shape 1 1 2.0\n") == "t.case:1: K must be an integer, got `2.0`");
    CHECK(rejection("shape 1 1 7x\n") == "t.case:1: K must be an integer, got `7x`");
}

TEST_CASE("a dimension above 2^31 - 1 is rejected and 2^31 - 1 itself is accepted") {
    CHECK(rejection("shape 1 1 2147483648\n") == "t.case:1: K must be between 1 and 2147483647, got 2147483648");
    CHECK(starts_with(rejection("shape 99999999999999999999 1 1\n"), "t.case:1: M is out of range"));
    const auto tc = parse_testcase("shape 2147483647 1 1\ndata uniform -1 1\nseed 1\n", "p", "s/x");
    CHECK(tc.M == 2147483647);
}

TEST_CASE("a shape with the wrong number of fields is rejected") {
    CHECK(starts_with(rejection("shape 1 1\n"), "t.case:1: expected `shape M N K`"));
    CHECK(starts_with(rejection("shape 1 1 1 1\n"), "t.case:1: expected `shape M N K`"));
}

TEST_CASE("an explicit row of the wrong length is rejected on that row's line") {
    const auto why = rejection("shape 2 3 1\ndata explicit\nA\n1 2 3\n4 5\nB\n1\n1\n1\n");
    CHECK(why == "t.case:5: row 2 of A has 2 numbers, expected 3");
    CHECK(rejection("shape 1 1 2\ndata explicit\nA\n1\nB\n1 2 3\n") ==
          "t.case:6: row 1 of B has 3 numbers, expected 2");
}

TEST_CASE("an explicit block that ends too early is rejected") {
    CHECK(rejection("shape 2 1 1\ndata explicit\nA\n1\n") == "t.case:4: matrix A ends after 1 of 2 rows");
    CHECK(rejection("shape 1 2 1\ndata explicit\nA\n1 1\nB\n1\n") == "t.case:6: matrix B ends after 1 of 2 rows");
}

TEST_CASE("a non-numeric or non-finite explicit element is rejected") {
    CHECK(starts_with(rejection("shape 1 2 1\ndata explicit\nA\n1 abc\n"),
                      "t.case:4: a matrix element must be a finite number"));
    CHECK(starts_with(rejection("shape 1 2 1\ndata explicit\nA\n1 inf\n"),
                      "t.case:4: a matrix element must be a finite number"));
    CHECK(starts_with(rejection("shape 1 2 1\ndata explicit\nA\nnan 1\n"),
                      "t.case:4: a matrix element must be a finite number"));
}

TEST_CASE("a matrix block without `data explicit` before it is rejected") {
    CHECK(rejection("shape 1 1 1\ndata uniform -1 1\nseed 1\nA\n1\n") ==
          "t.case:4: matrix blocks need `data explicit` before them");
    CHECK(rejection("shape 1 1 1\nB\n1\n") == "t.case:2: matrix blocks need `data explicit` before them");
}

TEST_CASE("a matrix block before the shape is rejected") {
    CHECK(rejection("data explicit\nA\n1\n") == "t.case:2: `shape` must come before the matrix blocks");
}

TEST_CASE("an explicit case needs both A and B") {
    CHECK(rejection("shape 1 1 1\ndata explicit\nA\n2\n") ==
          "t.case:5: an explicit case needs both an `A` and a `B` block");
}

TEST_CASE("uniform needs LOW strictly below HIGH") {
    CHECK(rejection("shape 1 1 1\ndata uniform 1 1\nseed 1\n") == "t.case:2: uniform needs LOW < HIGH");
    CHECK(rejection("shape 1 1 1\ndata uniform 2 -2\nseed 1\n") == "t.case:2: uniform needs LOW < HIGH");
}

TEST_CASE("uniform bounds beyond ±1e30 are rejected") {
    CHECK(starts_with(rejection("shape 1 1 1\ndata uniform -1 2e30\nseed 1\n"),
                      "t.case:2: uniform bounds must lie within"));
    CHECK_NOTHROW(parse_testcase("shape 1 1 1\ndata uniform -1e6 1e6\nseed 1\n", "p", "s/x"));
}

TEST_CASE("integers 0 0 is rejected because all-zero data hides unwritten output") {
    CHECK(starts_with(rejection("shape 1 1 1\ndata integers 0 0\nseed 1\n"), "t.case:2: integers 0 0 is all zeros"));
    CHECK(starts_with(rejection("shape 1 1 1\ndata integers 3 -3\nseed 1\n"), "t.case:2: integers needs LOW <= HIGH"));
    CHECK(starts_with(rejection("shape 1 1 1\ndata integers -1 0.5\nseed 1\n"), "t.case:2: HIGH must be an integer"));
    CHECK_NOTHROW(parse_testcase("shape 1 1 1\ndata integers 1 1\nseed 1\n", "p", "s/x"));
}

TEST_CASE("a data line of an unknown kind is rejected") {
    CHECK(
        starts_with(rejection("shape 1 1 1\ndata normal 0 1\nseed 1\n"), "t.case:2: expected `data uniform LOW HIGH`"));
    CHECK(
        starts_with(rejection("shape 1 1 1\ndata uniform 0\nseed 1\n"), "t.case:2: expected `data uniform LOW HIGH`"));
}

TEST_CASE("an all-zero explicit A or B is rejected after the last line") {
    CHECK(starts_with(rejection("shape 1 2 1\ndata explicit\nA\n0 0\nB\n1\n2\n"), "t.case:8: an all-zero A or B"));
    CHECK(starts_with(rejection("shape 1 2 1\ndata explicit\nA\n0 1\nB\n-0\n0\n"), "t.case:8: an all-zero A or B"));
}

TEST_CASE("an explicit element beyond ±1e30 is rejected") {
    CHECK(starts_with(rejection("shape 1 1 1\ndata explicit\nA\n2e30\nB\n1\n"), "t.case:7: an element of A exceeds"));
}

TEST_CASE("time_limit must be positive and at most 600 seconds") {
    const std::string base = "shape 1 1 1\ndata uniform -1 1\nseed 1\n";
    CHECK(starts_with(rejection(base + "time_limit 0\n"), "t.case:4: time_limit must be in (0, 600] seconds"));
    CHECK(starts_with(rejection(base + "time_limit 601\n"), "t.case:4: time_limit must be in (0, 600] seconds"));
    CHECK(starts_with(rejection(base + "time_limit -1\n"), "t.case:4: time_limit must be in (0, 600] seconds"));
    CHECK(parse_testcase(base + "time_limit 600\n", "p", "s/x").time_limit_s == 600.0);
}

TEST_CASE("the time limit defaults to one second plus the time at 100 GFLOP/s") {
    const auto tc = parse_testcase("shape 1000 1000 1000\ndata uniform -1 1\nseed 1\n", "p", "s/x");
    CHECK(tc.time_limit_s == 0.0);
    // 2·10^9 flops at 10^11 flop/s = 0.02 s
    CHECK(time_limit_s(tc) == doctest::Approx(1.02).epsilon(1e-12));
    CHECK(default_time_limit_s(1, 1, 1) == doctest::Approx(1.0 + 2e-11).epsilon(1e-12));
    CHECK(default_time_limit_s(8192, 6144, 4096) == doctest::Approx(1.0 + 2.0 * 8192 * 6144 * 4096 / 1e11));
    CHECK(flop_count(2, 3, 4) == 48.0);
    // no overflow of int products
    CHECK(flop_count(65536, 65536, 65536) == doctest::Approx(2.0 * 281474976710656.0));
}

TEST_CASE("an explicit time_limit replaces the default") {
    const auto tc = parse_testcase("shape 1000 1000 1000\ndata uniform -1 1\nseed 1\ntime_limit 2.5\n", "p", "s/x");
    CHECK(tc.time_limit_s == 2.5);
    CHECK(time_limit_s(tc) == 2.5);
}

TEST_CASE("load_suite loads the shipped suite as sample, secret, perf, rank, huge, each sorted by name") {
    const auto cases = load_suite(GEMM_SOURCE_DIR "/testcases");
    REQUIRE(cases.size() >= 24);
    CHECK(cases.front().name == "sample/01-one-by-one");
    const std::vector<std::string> order{"sample", "secret", "perf", "rank", "huge"};
    std::size_t rank = 0;
    std::string previous;
    for (const auto &tc : cases) {
        CAPTURE(tc.name);
        const auto here = std::find(order.begin(), order.end(), tc.category) - order.begin();
        REQUIRE(static_cast<std::size_t>(here) < order.size());
        CHECK(static_cast<std::size_t>(here) >= rank);
        if (static_cast<std::size_t>(here) == rank) CHECK(previous < tc.name);
        rank = static_cast<std::size_t>(here);
        previous = tc.name;
    }
    auto has = [&](const std::string &name) {
        return std::any_of(cases.begin(), cases.end(), [&](const TestCase &tc) { return tc.name == name; });
    };
    for (const char *name : {"secret/04-primes", "secret/13-tall-skinny", "perf/02-leetgpu"}) CHECK(has(name));
}

TEST_CASE("load_suite fills category, path and contents of each shipped case") {
    const auto cases = load_suite(GEMM_SOURCE_DIR "/testcases");
    auto find = [&](const std::string &name) {
        return std::find_if(cases.begin(), cases.end(), [&](const TestCase &tc) { return tc.name == name; });
    };
    const auto primes = find("secret/04-primes");
    REQUIRE(primes != cases.end());
    CHECK(primes->category == "secret");
    CHECK(contains(primes->path, "testcases/secret/04-primes.case"));
    CHECK(primes->M == 127);
    CHECK(primes->N == 131);
    CHECK(primes->K == 137);
    CHECK(primes->generator.seed == 104u);

    const auto one = find("sample/01-one-by-one");
    REQUIRE(one != cases.end());
    CHECK(one->category == "sample");
    CHECK(one->has_explicit_data);
    CHECK(one->A == std::vector<float>{1.5f});
    CHECK(one->B == std::vector<float>{-2.25f});
    CHECK(one->expected_C == std::vector<double>{-3.375});

    const auto leetgpu = find("perf/02-leetgpu");
    REQUIRE(leetgpu != cases.end());
    CHECK(leetgpu->category == "perf");
    CHECK(leetgpu->M == 8192);
    CHECK(leetgpu->N == 6144);
    CHECK(leetgpu->K == 4096);

    for (const auto &tc : cases) CHECK(tc.category == tc.name.substr(0, tc.name.find('/')));
}

TEST_CASE("load_suite names cases in nested folders by their relative path") {
    TempDir dir;
    dir.write("top.case", "shape 1 1 1\ndata uniform -1 1\nseed 1\n");
    dir.write("group/sub/deep.case", "shape 2 2 2\ndata uniform -1 1\nseed 2\n");
    dir.write("group/ignored.txt", "not a testcase");
    const auto cases = load_suite(dir.path.string());
    REQUIRE(cases.size() == 2);
    CHECK(cases[0].name == "group/sub/deep");
    CHECK(cases[0].category == "group");
    CHECK(cases[1].name == "top");
    CHECK(cases[1].M == 1);
}

TEST_CASE("load_suite with one bad file throws an error naming that file and line only") {
    TempDir dir;
    dir.write("a-good.case", "shape 1 1 1\ndata uniform -1 1\nseed 1\n");
    dir.write("b-bad.case", "shape 1 1 1\ndata uniform 1 -1\nseed 1\n");
    const std::string bad = (dir.path / "b-bad.case").string();
    std::string why;
    try {
        load_suite(dir.path.string());
    } catch (const TestcaseError &e) {
        why = e.what();
    }
    CHECK(why == bad + ":2: uniform needs LOW < HIGH");
    CHECK_FALSE(contains(why, "a-good"));
}

TEST_CASE("load_suite lists every bad file, one per line") {
    TempDir dir;
    dir.write("x.case", "shape 0 1 1\n");
    dir.write("y.case", "shape 1 1 1\ndata uniform -1 1\n");
    std::string why;
    try {
        load_suite(dir.path.string());
    } catch (const TestcaseError &e) {
        why = e.what();
    }
    CHECK(why == (dir.path / "x.case").string() + ":1: M must be between 1 and 2147483647, got 0\n" +
                     (dir.path / "y.case").string() + ":3: a generated case needs `seed S`");
}

TEST_CASE("load_suite rejects a folder that is missing or holds no testcases") {
    TempDir dir;
    CHECK_THROWS_WITH_AS(load_suite(dir.path.string()), (dir.path.string() + ":0: holds no *.case files").c_str(),
                         TestcaseError);
    const std::string missing = (dir.path / "nope").string();
    CHECK_THROWS_WITH_AS(load_suite(missing), (missing + ":0: is not a folder of testcases").c_str(), TestcaseError);
}

TEST_CASE("load_testcase reports an unreadable file at line 0") {
    TempDir dir;
    const std::string missing = (dir.path / "absent.case").string();
    CHECK_THROWS_WITH_AS(load_testcase(missing, dir.path.string()),
                         (missing + ":0: cannot be read: No such file or directory").c_str(), TestcaseError);
}

TEST_CASE("an explicit case seeds its timed inputs with 1 unless it names a seed") {
    const auto plain = parse_testcase("shape 1 1 1\ndata explicit\nA\n2\nB\n3\n", "p", "sample/p");
    CHECK(plain.generator.seed == 1u);
    const auto seeded = parse_testcase("shape 1 1 1\ndata explicit\nseed 77\nA\n2\nB\n3\n", "p", "sample/p");
    CHECK(seeded.generator.seed == 77u);
    CHECK(seeded.has_explicit_data);
}

TEST_CASE("normal, mixed and sparse data lines parse into their distributions") {
    CHECK(parse_testcase("shape 2 3 4\ndata normal\nseed 1\n", "p", "secret/n").generator.distribution ==
          Distribution::Normal);
    CHECK(parse_testcase("shape 2 3 4\ndata mixed\nseed 1\n", "p", "secret/m").generator.distribution ==
          Distribution::Mixed);
    const auto sparse = parse_testcase("shape 2 3 4\ndata sparse 0.25\nseed 1\n", "p", "secret/s");
    CHECK(sparse.generator.distribution == Distribution::Sparse);
    CHECK(sparse.generator.density == 0.25);
}

TEST_CASE("a sparse density that is zero or above one is rejected") {
    CHECK(starts_with(rejection("shape 2 2 2\ndata sparse 0\nseed 1\n"), "t.case:2: sparse needs a DENSITY"));
    CHECK(starts_with(rejection("shape 2 2 2\ndata sparse 1.5\nseed 1\n"), "t.case:2: sparse needs a DENSITY"));
    CHECK(starts_with(rejection("shape 2 2 2\ndata sparse\nseed 1\n"), "t.case:2: expected `data uniform"));
}

TEST_CASE("a case whose result could overflow FP32 is rejected") {
    CHECK(contains(rejection("shape 2 10 2\ndata uniform -1e19 1e19\nseed 1\n"),
                   "t.case:4: the result could overflow FP32"));
    CHECK(rejection("shape 2 1000 2\ndata uniform -1e15 1e15\nseed 1\n").empty());
    CHECK(contains(rejection("shape 1 1 1\ndata explicit\nA\n1e20\nB\n1e20\n"), "could overflow FP32"));
    CHECK(rejection("shape 1 1 1\ndata explicit\nA\n1e6\nB\n1e6\n").empty());
    // Mixed data reaches 2^20 per element: N·2^40 passes 1e37 only past N ≈ 9e24, never.
    CHECK(rejection("shape 2 2147483647 2\ndata mixed\nseed 1\n").empty());
}

TEST_CASE("magnitudes that would make FP32 products subnormal are rejected") {
    CHECK(contains(rejection("shape 2 2 2\ndata uniform -1e-12 1e-12\nseed 1\n"),
                   "t.case:2: uniform bounds this close to 0"));
    CHECK(contains(rejection("shape 1 1 1\ndata explicit\nA\n1e-20\nB\n1\n"), "non-zero but below 1e-15"));
    CHECK(rejection("shape 1 2 1\ndata explicit\nA\n0 1e-15\nB\n1\n2\n").empty());
}

TEST_CASE("a leading UTF-8 byte order mark is not part of the first key") {
    const auto tc = parse_testcase("\xef\xbb\xbfshape 2 3 4\ndata normal\nseed 1\n", "bom.case", "secret/bom");
    CHECK(tc.M == 2);
}

TEST_CASE("control bytes from a file reach a message escaped") {
    const auto why = rejection("\x1b[31mshape 1 1 1\n", "red\x07.case");
    CHECK(why == "red\\x07.case:1: unknown key `\\x1b[31mshape` (expected shape, data, seed, time_limit, A, B or C)");
    CHECK_FALSE(contains(why, "\x1b"));
}

TEST_CASE("a shape no GPU holds or no time limit covers is refused at its shape line") {
    CHECK(starts_with(rejection("data normal\nshape 2147483647 2147483647 2147483647\nseed 1\n"),
                      "t.case:2: A, B and C of this shape need "));
    const auto slow = rejection("shape 100000 100000 100000\ndata normal\nseed 1\n");
    CHECK(starts_with(slow, "t.case:1: the default time limit of this shape would be 20001 s"));
    CHECK(contains(slow, "add `time_limit SECONDS`"));
    CHECK(rejection("shape 100000 100000 100000\ndata normal\nseed 1\ntime_limit 600\n").empty());
    CHECK(rejection("shape 32768 65600 16\ndata uniform -1 1\nseed 301\n").empty()); // huge/01
}

TEST_CASE("a case from command-line options names the option of a bad value") {
    auto problem = [](const std::vector<OptionLine> &lines) {
        try {
            parse_option_case(lines, "shape/x", "--shape 2x2x2 with --data 'uniform -1e30 1e30'");
        } catch (const UsageError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(problem({{"--shape 0x2x2", "shape 0 2 2"}, {"--data 'normal'", "data normal"}, {"--seed 1", "seed 1"}}) ==
          "--shape 0x2x2: M must be between 1 and 2147483647, got 0");
    CHECK(problem({{"--shape 2x2x2", "shape 2 2 2"},
                   {"--data 'uniform 1 1'", "data uniform 1 1"},
                   {"--seed 1", "seed 1"}}) == "--data 'uniform 1 1': uniform needs LOW < HIGH");
    CHECK(starts_with(problem({{"--shape 2x2x2", "shape 2 2 2"},
                               {"--data 'uniform -1e30 1e30'", "data uniform -1e30 1e30"},
                               {"--seed 1", "seed 1"}}),
                      "--shape 2x2x2 with --data 'uniform -1e30 1e30': the result could overflow FP32"));
    CHECK(problem({{"--shape 2x2x2", "shape 2 2 2"}, {"--data 'normal'", "data normal"}, {"--seed 1", "seed 1"}})
              .empty());
}

TEST_CASE("a selector picks a case by its last part at any depth") {
    CHECK(case_selected("secret/deep/er/07-x", "07-x"));
    CHECK(case_selected("secret/deep/er/07-x", "er/07-x"));
    CHECK(case_selected("secret/deep/er/07-x", "secret"));
    CHECK_FALSE(case_selected("secret/deep/er/07-x", "deep"));
    CHECK_FALSE(case_selected("secret/deep/er/07-x", "r/07-x"));
}

TEST_CASE("a lenient load keeps the good cases and reports each bad file") {
    TempDir dir;
    dir.write("secret/01-good.case", "shape 2 2 2\ndata normal\nseed 1\n");
    dir.write("secret/02-bad.case", "shape 2 2\n");
    const Suite suite = load_suite_leniently(dir.path.string());
    REQUIRE(suite.cases.size() == 1);
    CHECK(suite.cases[0].name == "secret/01-good");
    REQUIRE(suite.problems.size() == 1);
    CHECK(contains(suite.problems[0], "02-bad.case:1: expected `shape M N K`"));
    CHECK(load_suite_leniently((dir.path / "missing").string()).problems.size() == 1);
}

TEST_CASE("a wrong expected C is the file's error wherever it is loaded, at the row of C") {
    TempDir dir;
    dir.write("sample/01-good.case", "shape 1 1 1\ndata explicit\nA\n2\nB\n3\nC\n6\n");
    dir.write("sample/02-wrong-c.case", "shape 1 1 1\ndata explicit\nA\n2\nB\n3\nC\n7\n");
    const std::string wrong = (dir.path / "sample/02-wrong-c.case").string();
    const std::string why = wrong + ":8: expected C at row 0, col 0 is 7 but A·B is 6";
    CHECK_THROWS_WITH_AS(load_testcase(wrong, dir.path.string()), why.c_str(), TestcaseError);
    const Suite suite = load_suite_leniently(dir.path.string());
    REQUIRE(suite.cases.size() == 1);
    CHECK(suite.cases[0].name == "sample/01-good");
    CHECK(suite.problems == std::vector<std::string>{why});
}

TEST_CASE("a *.case that is a dangling link, a loop of links, a folder or a FIFO is a problem named by its path") {
    namespace fs = std::filesystem;
    TempDir dir;
    dir.write("secret/01-good.case", "shape 2 2 2\ndata normal\nseed 1\n");
    fs::create_symlink(dir.path / "secret/nowhere.case", dir.path / "secret/02-dangling.case");
    fs::create_symlink(dir.path / "secret/03-loop.case", dir.path / "secret/03-loop.case");
    fs::create_directories(dir.path / "secret/04-folder.case");
    REQUIRE(mkfifo((dir.path / "secret/05-fifo.case").c_str(), 0600) == 0);
    fs::create_symlink(dir.path / "secret/01-good.case", dir.path / "secret/06-link-to-good.case");
    const Suite suite = load_suite_leniently(dir.path.string());
    REQUIRE(suite.cases.size() == 2);
    CHECK(suite.cases[0].name == "secret/01-good");
    CHECK(suite.cases[1].name == "secret/06-link-to-good");
    const auto at = [&](const char *name) { return (dir.path / "secret" / name).string() + ":0: "; };
    CHECK(suite.problems == std::vector<std::string>{
                                at("02-dangling.case") + "is a symbolic link to " +
                                    (dir.path / "secret/nowhere.case").string() + ", which does not exist",
                                at("03-loop.case") + "is a loop of symbolic links",
                                at("04-folder.case") + "is a folder, not a testcase file",
                                at("05-fifo.case") + "is not a regular file (a FIFO, socket or device)",
                            });
    CHECK_THROWS_AS(load_suite(dir.path.string()), TestcaseError);
}

TEST_CASE("an int8 problem's case holds int8 integers, int8 zero points, FP32 scales and sums int32 holds") {
    const auto problem =
        load_problem(std::string(GEMM_SOURCE_DIR) + "/testcases/leetgpu/32-int8-quantized-matmul/problem.json");
    const auto error_of = [&](const std::string &text) {
        try {
            parse_testcase(text, "c.case", "secret/c", problem);
        } catch (const TestcaseError &e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string shape = "shape 61 67 3\nseed 5\n";
    CHECK(error_of(shape + "data integers -128 127\n").empty());
    CHECK(contains(error_of(shape + "data uniform -1 1\n"), "c.case:3: an int8 problem's data is `data integers"));
    CHECK(contains(error_of(shape + "data integers -200 127\n"), "spans [-200, 127]"));
    CHECK(
        contains(error_of(shape + "data integers -8 8\nscalar zero_point_B 300\n"), "zero_point_B must be an integer"));
    CHECK(
        contains(error_of(shape + "data integers -8 8\nscalar zero_point_A 1.5\n"), "zero_point_A must be an integer"));
    CHECK(contains(error_of(shape + "data integers -8 8\nscalar scale_C 0\n"), "scale_C must be a non-zero number"));
    CHECK(contains(error_of(shape + "data integers -8 8\nscalar scale_A 1e39\n"), "scale_A must be a non-zero number"));
    // 255·255 per product: past 33,025 terms int32 cannot hold every sum.
    CHECK(
        error_of("shape 2 2 33025\nseed 5\ndata integers -128 127\nscalar zero_point_A 127\nscalar zero_point_B 127\n")
            .empty());
    CHECK(contains(
        error_of("shape 2 2 33026\nseed 5\ndata integers -128 127\nscalar zero_point_A 127\nscalar zero_point_B 127\n"),
        "c.case:1: sums of this case could reach 2147515650, past int32's 2147483647"));
}
