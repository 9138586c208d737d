#include "measurement/stopping_rule.hpp"

namespace gemm {

std::vector<RuleParameter> CallBudgetRule::parameters() const {
    return {{"min_calls", min_calls_}, {"max_calls", max_calls_}, {"budget_s", budget_s_}};
}

bool CallBudgetRule::wants_more(const Repetitions &so_far) const {
    if (so_far.done >= max_calls_) return false;
    return so_far.done < min_calls_ || !budget_spent(so_far);
}

std::vector<RuleParameter> SpreadRule::parameters() const {
    return {{"spread_target", spread_target_}, {"budget_s", budget_s_}, {"min_rounds", min_rounds_}};
}

bool SpreadRule::wants_more(const Repetitions &so_far) const {
    if (so_far.done < min_rounds_) return true;
    return so_far.spread >= spread_target_ && !budget_spent(so_far);
}

} // namespace gemm
