// doctest's main, and one rule of our own: a run asked for test cases by name that finds
// none fails. CTest runs each case as `-tc=<name>`; a name CTest cut in two (doctest's
// discovery splits names at ';') would otherwise run nothing and pass.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>

namespace {

unsigned cases_matched = 0;
bool run_ended = false;

struct MatchCounter : doctest::IReporter {
    explicit MatchCounter(const doctest::ContextOptions &) {}
    void report_query(const doctest::QueryData &) override {}
    void test_run_start() override {}
    void test_run_end(const doctest::TestRunStats &stats) override {
        cases_matched = stats.numTestCasesPassingFilters;
        run_ended = true;
    }
    void test_case_start(const doctest::TestCaseData &) override {}
    void test_case_reenter(const doctest::TestCaseData &) override {}
    void test_case_end(const doctest::CurrentTestCaseStats &) override {}
    void test_case_exception(const doctest::TestCaseException &) override {}
    void subcase_start(const doctest::SubcaseSignature &) override {}
    void subcase_end() override {}
    void log_assert(const doctest::AssertData &) override {}
    void log_message(const doctest::MessageData &) override {}
    void test_case_skipped(const doctest::TestCaseData &) override {}
};

REGISTER_LISTENER("match-counter", 1, MatchCounter);

bool names_test_cases(int argc, char **argv) {
    for (int i = 1; i < argc; ++i)
        for (const char *prefix : {"-tc=", "--test-case=", "-dt-tc=", "--dt-test-case="})
            if (std::strncmp(argv[i], prefix, std::strlen(prefix)) == 0) return true;
    return false;
}

} // namespace

int main(int argc, char **argv) {
    doctest::Context context(argc, argv);
    const int status = context.run();
    if (context.shouldExit()) return status;
    if (status == 0 && run_ended && names_test_cases(argc, argv) && cases_matched == 0) {
        std::fprintf(stderr, "no test case has the name asked for (a name with ';' is cut in two by CTest)\n");
        return 1;
    }
    return status;
}
