// Every input in harness/tests/fuzz/regressions/ — what scripts/fuzz found, plus a few
// hand-made nasty ones — goes through what the fuzz target does: the parser, then for a
// case that gives C the judge's check of C against A·B. Each must parse or be rejected
// with TestcaseError; any other exception (or a crash) is the bug coming back.
#include <doctest/doctest.h>

#include "testcases/testcase.hpp"
#include "verification/check.hpp"
#include "verification/reference.hpp"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

using namespace gemm;

namespace {

std::string read_bytes(const std::filesystem::path &path) {
    std::ifstream file(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// What fuzz_testcase.cpp does with one input; true when the case was accepted.
bool parse_and_validate(const std::string &text, const std::string &path) {
    try {
        const TestCase tc = parse_testcase(text, path, "fuzz/input");
        if (!tc.expected_C.empty() && static_cast<double>(tc.M) * tc.N * tc.K <= 1e6)
            (void)expected_output_mismatch(tc, reference_on_cpu(tc.A, tc.B, tc.M, tc.N, tc.K));
        return true;
    } catch (const TestcaseError &) {
        return false;
    }
}

} // namespace

TEST_CASE("every input the fuzzer ever broke the parser with now parses or is rejected cleanly") {
    namespace fs = std::filesystem;
    const fs::path folder = fs::path(GEMM_SOURCE_DIR) / "harness" / "tests" / "fuzz" / "regressions";
    REQUIRE(fs::is_directory(folder));
    std::vector<fs::path> inputs;
    for (const auto &entry : fs::directory_iterator(folder))
        if (entry.is_regular_file() && entry.path().filename().string().rfind('.', 0) != 0)
            inputs.push_back(entry.path());
    std::sort(inputs.begin(), inputs.end());
    REQUIRE(!inputs.empty());
    for (const auto &input : inputs) {
        INFO("regression input: " << input.string());
        const std::string text = read_bytes(input);
        try {
            parse_and_validate(text, input.string());
        } catch (const std::exception &e) {
            FAIL_CHECK("an exception other than TestcaseError escaped: " << e.what());
        } catch (...) {
            FAIL_CHECK("a non-standard exception escaped");
        }
    }
}
