// libFuzzer target for the testcase parser and the validator the judge runs on every
// suite (scripts/fuzz builds and runs it). The input bytes are a testcase file's text.
// A rejection (gemm::TestcaseError) is a correct answer to bad input; any other
// exception, a sanitizer report, or a violated invariant of an accepted case is a bug.
#include "testcases/testcase.hpp"
#include "verification/check.hpp"
#include "verification/reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

const char *const fuzz_path = "fuzz.case";
const char *const fuzz_name = "fuzz/input";

[[noreturn]] void violated(const char *what) {
    std::fprintf(stderr, "fuzz_testcase: invariant violated: %s\n", what);
    std::abort();
}

#define INVARIANT(condition)                                                                                           \
    do {                                                                                                               \
        if (!(condition)) violated(#condition);                                                                        \
    } while (0)

bool starts_with(const std::string &s, const std::string &prefix) { return s.rfind(prefix, 0) == 0; }

// `PATH:LINE: ` followed by a reason: what every rejection and every mismatch looks like.
// Returns LINE, or -1 when the message does not have that form.
long long located_line(const std::string &message) {
    const std::string prefix = std::string(fuzz_path) + ":";
    if (!starts_with(message, prefix)) return -1;
    std::size_t i = prefix.size();
    long long line = 0;
    const std::size_t digits_start = i;
    while (i < message.size() && message[i] >= '0' && message[i] <= '9' && i - digits_start < 12)
        line = line * 10 + (message[i++] - '0');
    if (i == digits_start || i + 2 > message.size() || message[i] != ':' || message[i + 1] != ' ') return -1;
    return line;
}

bool within(double x, double limit) { return std::isfinite(x) && std::fabs(x) <= limit; }

// The parser's range rules (testcase.cpp; keep in step): explicit elements and uniform
// bounds within ±1e30, non-zero elements at least 1e-15, and N·max|A|·max|B| ≤ 1e37 so
// that no correct result overflows FP32. Elements are checked after rounding to float,
// hence the one-ulp slack.
constexpr double max_element = 1e30 * (1 + 0x1p-23);
constexpr double min_nonzero_element = 1e-15 * (1 - 0x1p-23);
constexpr double max_result = 1e37;

void check_accepted(const gemm::TestCase &tc) {
    INVARIANT(tc.name == fuzz_name);
    INVARIANT(tc.path == fuzz_path);
    INVARIANT(tc.category == tc.name.substr(0, tc.name.find('/')));
    INVARIANT(tc.M >= 1 && tc.N >= 1 && tc.K >= 1);
    INVARIANT(tc.time_limit_s == 0 || (tc.time_limit_s > 0 && tc.time_limit_s <= 600));
    const double limit = gemm::time_limit_s(tc);
    INVARIANT(std::isfinite(limit) && limit > 0);
    INVARIANT(tc.generator.seed < (std::uint64_t{1} << 59));

    const auto M = static_cast<std::size_t>(tc.M), N = static_cast<std::size_t>(tc.N),
               K = static_cast<std::size_t>(tc.K);
    if (tc.has_explicit_data) {
        INVARIANT(tc.A.size() == M * N);
        INVARIANT(tc.B.size() == N * K);
        INVARIANT(tc.A.size() <= 1'000'000 && tc.B.size() <= 1'000'000);
        bool a_nonzero = false, b_nonzero = false;
        for (float x : tc.A) {
            INVARIANT(within(x, max_element));
            INVARIANT(x == 0 || std::fabs(x) >= min_nonzero_element);
            a_nonzero = a_nonzero || x != 0;
        }
        for (float x : tc.B) {
            INVARIANT(within(x, max_element));
            INVARIANT(x == 0 || std::fabs(x) >= min_nonzero_element);
            b_nonzero = b_nonzero || x != 0;
        }
        INVARIANT(a_nonzero && b_nonzero);
        double max_a = 0, max_b = 0;
        for (float x : tc.A) max_a = std::max(max_a, static_cast<double>(std::fabs(x)));
        for (float x : tc.B) max_b = std::max(max_b, static_cast<double>(std::fabs(x)));
        INVARIANT(static_cast<double>(tc.N) * max_a * max_b <= max_result);
        INVARIANT(tc.expected_C.empty() || tc.expected_C.size() == M * K);
        if (tc.expected_C.empty()) {
            INVARIANT(tc.expected_C_row_lines.empty());
        } else {
            INVARIANT(tc.expected_C_row_lines.size() == M);
            for (std::size_t r = 0; r < tc.expected_C_row_lines.size(); ++r) {
                INVARIANT(tc.expected_C_row_lines[r] >= 1);
                INVARIANT(r == 0 || tc.expected_C_row_lines[r] > tc.expected_C_row_lines[r - 1]);
            }
            for (double x : tc.expected_C) INVARIANT(std::isfinite(x));
        }
    } else {
        INVARIANT(tc.A.empty() && tc.B.empty());
        INVARIANT(tc.expected_C.empty() && tc.expected_C_row_lines.empty());
        const auto &g = tc.generator;
        switch (g.distribution) {
        case gemm::Distribution::Uniform:
            INVARIANT(within(g.low, max_element) && within(g.high, max_element));
            INVARIANT(g.low < g.high);
            break;
        case gemm::Distribution::Integers:
            INVARIANT(within(g.low, 1 << 24) && within(g.high, 1 << 24));
            INVARIANT(g.low == std::floor(g.low) && g.high == std::floor(g.high));
            INVARIANT(g.low <= g.high);
            INVARIANT(!(g.low == 0 && g.high == 0));
            break;
        case gemm::Distribution::Sparse: INVARIANT(g.density > 0 && g.density <= 1); break;
        default: break;
        }
        const double magnitude = gemm::max_magnitude(g);
        INVARIANT(std::isfinite(magnitude) && magnitude > 0);
        INVARIANT(static_cast<double>(tc.N) * magnitude * magnitude <= max_result);
    }
}

// What the judge does with a suite before running it (judge_main.cpp): an explicit case
// that gives C is checked against the FP64 product. Capped so each input stays fast.
void validate_like_the_judge(const gemm::TestCase &tc) {
    if (tc.expected_C.empty()) return;
    if (static_cast<double>(tc.M) * tc.N * tc.K > 1e6) return;
    const gemm::Reference ref = gemm::reference_on_cpu(tc.A, tc.B, tc.M, tc.N, tc.K);
    INVARIANT(ref.value.size() == tc.expected_C.size());
    INVARIANT(ref.magnitude.size() == tc.expected_C.size());
    if (const auto why = gemm::expected_output_mismatch(tc, ref)) {
        // The setter's error names the file and the line of the offending row of C.
        const long long line = located_line(*why);
        INVARIANT(line >= 1);
        bool is_a_row_of_C = false;
        for (int l : tc.expected_C_row_lines) is_a_row_of_C = is_a_row_of_C || l == line;
        INVARIANT(is_a_row_of_C);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    gemm::TestCase tc;
    try {
        tc = gemm::parse_testcase(text, fuzz_path, fuzz_name);
    } catch (const gemm::TestcaseError &e) {
        // Every rejection reads `file:line: what is wrong`.
        INVARIANT(located_line(e.what()) >= 1);
        return 0;
    }
    check_accepted(tc);
    validate_like_the_judge(tc);
    return 0;
}
