// What the referee saw of a case's calls, as facts: how its work on the case ended, the
// checked call's integrity (its output check travels as CaseResult::check), and the first
// timed call whose output failed, with that call's check. No verdict: the judge's side
// turns these into one, in one place (verification/case_verdict.cpp, decide_case). The
// referee asks the same rules (judge_output, judge_timed_call) only to stop at the first
// failing call.
#pragma once

#include "verification/check.hpp"
#include "verification/timed_check.hpp"

#include <optional>
#include <string>

namespace gemm {

// How the referee's work on a case ended, in its own words (the supervisor's view of the
// case is SupervisorSaw, case_verdict.hpp).
enum class RefereeWork {
    Completed,      // every call it made was checked: the checks below decide
    SolutionFailed, // the solution's process failed the protocol, a call, or kept the GPU busy: `why`
    RefereeFailed,  // the referee's own work failed, or the request could not be run: `why`
};

struct FailedTimedCall {
    int call = 0; // 1 for the first timed call
    TimedCallCheck check;
    // The full check, for a problem whose timed calls are checked in full (an epilogue is not
    // linear in the inputs, so no projection checks it); `check` holds its integrity then.
    std::optional<OutputCheck> full;
};

struct RefereeFacts {
    RefereeWork ending = RefereeWork::RefereeFailed;
    std::string why;
    std::optional<IntegrityCheck> checked_integrity; // the checked call's guard bands and inputs
    std::optional<FailedTimedCall> failed_timed_call;
};

} // namespace gemm
