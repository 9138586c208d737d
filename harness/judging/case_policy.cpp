#include "judging/case_policy.hpp"

#include <algorithm>

namespace gemm {

CasePolicy policy_for(const TestCase &tc, const CaseRunOptions &o) {
    CasePolicy p;
    p.precision = parse_precision(o.precision).value_or(Precision::FP32);
    p.timed = true;
    p.baseline = o.baseline == "all" || (o.baseline == "perf" && tc.category == "perf");
    // huge cases exist to catch 32-bit index overflow: the smallest failing shape of
    // such a failure is huge again, so shrinking would only repeat it.
    p.shrink = o.shrink && tc.category != "huge";
    p.reveal = o.reveal || tc.category == "sample";
    // A case timed for correctness alone prints a time nobody compares: a shorter budget
    // and fewer calls (case_policy.hpp). Perf and rank cases, and
    // any case timed against cuBLAS, keep the whole budget, as does every case when it is given.
    const bool measured = p.baseline || tc.category == "perf" || tc.category == "rank";
    const bool correctness_only = !o.time_budget_given && !measured;
    p.sampling.budget_s = correctness_only ? std::min(o.time_budget_s, correctness_budget_s) : o.time_budget_s;
    if (correctness_only) p.sampling.max_samples = correctness_max_samples;
    return p;
}

CasePolicy untimed(CasePolicy policy) {
    policy.timed = false;
    policy.baseline = false;
    return policy;
}

} // namespace gemm
