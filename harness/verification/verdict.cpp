#include "verification/verdict.hpp"

namespace gemm {

const char *verdict_name(Verdict v) {
    switch (v) {
    case Verdict::AC: return "AC";
    case Verdict::WA: return "WA";
    case Verdict::TLE: return "TLE";
    case Verdict::RE: return "RE";
    case Verdict::CE: return "CE";
    case Verdict::JE: return "JE";
    }
    return "JE";
}

std::optional<Verdict> parse_verdict(const std::string &name) {
    for (Verdict v : {Verdict::AC, Verdict::WA, Verdict::TLE, Verdict::RE, Verdict::CE, Verdict::JE})
        if (name == verdict_name(v)) return v;
    return std::nullopt;
}

Verdict worse(Verdict a, Verdict b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

int exit_status_for(Verdict worst) {
    switch (worst) {
    case Verdict::AC: return exit_status::all_accepted;
    case Verdict::WA: return exit_status::wrong_answer;
    case Verdict::TLE: return exit_status::time_limit;
    case Verdict::RE: return exit_status::runtime_error;
    case Verdict::CE: return exit_status::compile_error;
    case Verdict::JE: return exit_status::judge_error;
    }
    return exit_status::judge_error;
}

} // namespace gemm
