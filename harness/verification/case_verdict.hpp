// Where a case's verdict is decided, in one function, from facts: how the case's run ended
// as the supervisor saw it; the referee's facts (verification/referee_facts.hpp: how its work ended,
// the checked call's output and integrity, the first failing timed call's check), judged by
// the rules of verification/check.cpp (judge_output) and verification/timed_check.cpp (judge_timed_call);
// what the solution's confinement blocked; whether it wrote past its folder's limit; whether
// its time is one the GPU can give; for --sanitize, each tool's finding. A case's identity
// (name and shape) is stamped here, once.
#pragma once

#include "common/shape.hpp"
#include "verification/case_result.hpp"

#include <optional>
#include <string>

namespace gemm {

// What the supervisor saw end the case (the referee's own account of its work is
// RefereeWork, referee_facts.hpp).
enum class SupervisorSaw {
    RefereeReported,  // the referee sent its facts: they decide, unless a fact below overrides them
    NotCompiled,      // nvcc failed, or the library has no usable solve(): CE
    NotStarted,       // the solution's processes did not start or load it: RE
    CallOverran,      // a solve() call ran past the case's time limit: TLE
    FolderOverfilled, // the solution's process wrote past its folder's limit and was stopped: RE
    JudgeSideFailed,  // the judge's own side failed (the referee gone, silent or incoherent): JE
};

struct CaseFacts {
    SupervisorSaw ending = SupervisorSaw::RefereeReported;
    CaseResult reported;                          // the referee's result, when Reported
    std::string why;                              // any other ending, in words
    std::string runner_end;                       // how the solution's process ended, when the referee lost it
    std::optional<std::string> impossible_timing; // why the reported time cannot be (verification/plausibility.hpp)
    std::string attempts;                         // what the confinement blocked, named; "" for none
    // The solution's process wrote past its folder's limit (judging/os/runner_scratch.hpp):
    // RE whatever else happened, since a full folder may be what failed the rest.
    std::optional<std::string> folder_overfilled;
};

// The facts of a run that ended without the referee's result: how, and why in words.
CaseFacts ended_early(SupervisorSaw ending, std::string why);

// Facts in, a judgement out: the case's result with its verdict, detail and identity.
CaseResult decide_case(const std::string &name, const Shape &shape, CaseFacts facts);

// --sanitize: folds one tool's run of a case into the case's result so far. A finding is RE
// with its source line; without one, the run counts only when it is worse.
void add_sanitizer_run(CaseResult &so_far, const std::string &tool, const CaseResult &run,
                       const std::optional<std::string> &finding);

} // namespace gemm
