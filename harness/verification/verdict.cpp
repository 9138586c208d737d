#include "verification/verdict.hpp"

namespace gemm {

const std::array<VerdictRow, 6> &verdict_table() {
    using C = TerminalColour;
    // WA and TLE are the solution failing the test (JUnit's failure); RE, CE and JE are
    // errors: it did not get as far as an answer.
    static const std::array<VerdictRow, 6> table{{
        {Verdict::AC, "AC", "accepted", exit_status::all_accepted, C::green, true, "#137333", ""},
        {Verdict::WA, "WA", "wrong answer", exit_status::wrong_answer, C::red, true, "#b00020", "failure"},
        {Verdict::TLE, "TLE", "time limit exceeded", exit_status::time_limit, C::yellow, true, "#a05a00", "failure"},
        {Verdict::RE, "RE", "runtime error", exit_status::runtime_error, C::magenta, true, "#8e24aa", "error"},
        {Verdict::CE, "CE", "compile error", exit_status::compile_error, C::yellow, false, "#a05a00", "error"},
        {Verdict::JE, "JE", "judge error", exit_status::judge_error, C::cyan, true, "#00838f", "error"},
    }};
    return table;
}

const VerdictRow &verdict_row(Verdict v) { return verdict_table()[static_cast<std::size_t>(v)]; }

const char *verdict_name(Verdict v) { return verdict_row(v).name; }

std::optional<Verdict> parse_verdict(const std::string &name) {
    for (const auto &row : verdict_table())
        if (name == row.name) return row.verdict;
    return std::nullopt;
}

int verdict_rank(Verdict v) { return static_cast<int>(v); }

Verdict worse(Verdict a, Verdict b) { return verdict_rank(a) >= verdict_rank(b) ? a : b; }

int exit_status_for(Verdict worst) { return verdict_row(worst).exit_status; }

std::optional<Verdict> verdict_of_exit_status(int status) {
    if (status == exit_status::no_gpu) return std::nullopt;
    for (const auto &row : verdict_table())
        if (row.exit_status == status) return row.verdict;
    return Verdict::JE;
}

} // namespace gemm
