// The verdicts' one table (verification/verdict.hpp): the order, the names, the exit statuses,
// the colours and the JUnit elements that the console, JUnit, batch and the page take from it.
#include <doctest/doctest.h>

#include "verification/verdict.hpp"

#include <cstring>

using namespace gemm;

TEST_CASE("the verdict table: best first, each verdict's name, exit status and JUnit element") {
    const auto &table = verdict_table();
    for (std::size_t i = 0; i < table.size(); ++i) {
        CHECK(static_cast<std::size_t>(table[i].verdict) == i);
        CHECK(verdict_rank(table[i].verdict) == static_cast<int>(i));
        CHECK(parse_verdict(table[i].name) == table[i].verdict);
        CHECK(exit_status_for(table[i].verdict) == table[i].exit_status);
        CHECK(verdict_of_exit_status(table[i].exit_status) == table[i].verdict);
        CHECK(std::strlen(table[i].page_colour) == 7);
    }
    CHECK(std::string(verdict_name(Verdict::TLE)) == "TLE");
    CHECK(exit_status_for(Verdict::AC) == 0);
    CHECK(exit_status_for(Verdict::JE) == exit_status::judge_error);
    CHECK(worse(Verdict::WA, Verdict::RE) == Verdict::RE);
    CHECK_FALSE(parse_verdict("no GPU"));
    CHECK(std::string(verdict_row(Verdict::AC).junit_element).empty());
    CHECK(std::string(verdict_row(Verdict::TLE).junit_element) == "failure");
    CHECK(std::string(verdict_row(Verdict::CE).junit_element) == "error");
}

TEST_CASE("an exit status read back: no GPU is no verdict, and a status no verdict has is JE") {
    CHECK_FALSE(verdict_of_exit_status(exit_status::no_gpu));
    CHECK(verdict_of_exit_status(exit_status::setup) == Verdict::JE);
    CHECK(verdict_of_exit_status(exit_status::usage) == Verdict::JE);
    CHECK(verdict_of_exit_status(137) == Verdict::JE);
}
