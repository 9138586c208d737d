#include "judging/case_policy.hpp"

#include "testcases/categories.hpp"

#include <algorithm>

namespace gemm {

CasePolicy policy_for(const TestCase &tc, const CaseRunOptions &o) {
    CasePolicy p;
    p.precision = parse_precision(o.precision).value_or(Precision::FP32);
    p.timed = true;
    const CategoryTraits &category = category_traits(tc.category);
    p.baseline = o.baseline == "all" || (o.baseline == "perf" && category.against_cublas);
    p.shrink = o.shrink && category.shrinks;
    p.reveal = o.reveal || category.public_data;
    // A case timed for correctness alone prints a time nobody compares: a shorter budget
    // and fewer calls (case_policy.hpp). Measured categories, and any case timed against
    // cuBLAS, keep the whole budget, as does every case when it is given.
    const bool measured = p.baseline || category.measured;
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
