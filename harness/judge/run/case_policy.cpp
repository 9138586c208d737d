#include "judge/run/case_policy.hpp"

namespace gemm {

CasePolicy policy_for(const TestCase &tc, const JudgeOptions &o) {
    CasePolicy p;
    p.precision = parse_precision(o.precision).value_or(Precision::FP32);
    p.timed = true;
    p.baseline = o.baseline == "all" || (o.baseline == "perf" && tc.category == "perf");
    // huge cases exist to catch 32-bit index overflow: the smallest failing shape of
    // such a failure is huge again, so shrinking would only repeat it.
    p.shrink = o.shrink && tc.category != "huge";
    p.reveal = o.reveal || tc.category == "sample";
    p.sampling.budget_s = o.time_budget_s;
    return p;
}

CasePolicy untimed(CasePolicy policy) {
    policy.timed = false;
    policy.baseline = false;
    return policy;
}

} // namespace gemm
