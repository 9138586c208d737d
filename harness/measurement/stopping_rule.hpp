// When to stop repeating a measurement, behind one interface for both loops the judge
// runs (as nvbench's stopping criteria): the referee's calls of one case (CallBudgetRule:
// a budget of time, with a least and a most number of calls), and the rounds of rank and
// compare over the ranked set (SpreadRule: until every shape is steady, within a budget).
// Each rule names its parameters, so that a report can say which rule stopped a run and how
// it was set.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gemm {

// How far a repeated measurement has come: the rule reads only this.
struct Repetitions {
    int done = 0;       // calls kept, or rounds run
    double spent_s = 0; // time spent on them
    double spread = 1;  // the noisiest shape's IQR/median so far (rounds); 1 when unknown
};

// A named parameter of a rule: ("budget_s", 0.3).
using RuleParameter = std::pair<std::string, double>;

class StoppingRule {
  public:
    virtual ~StoppingRule() = default;
    virtual std::string name() const = 0;
    virtual std::vector<RuleParameter> parameters() const = 0;
    // Another repetition is wanted.
    virtual bool wants_more(const Repetitions &so_far) const = 0;
    // The budget ran out (as opposed to the rule being met).
    virtual bool budget_spent(const Repetitions &so_far) const = 0;
};

// The calls of one timing: at least min_calls, at most max_calls, else until budget_s of
// timed calls is spent.
class CallBudgetRule : public StoppingRule {
  public:
    CallBudgetRule(int min_calls, int max_calls, double budget_s)
        : min_calls_(min_calls), max_calls_(max_calls), budget_s_(budget_s) {}
    std::string name() const override { return "call budget"; }
    std::vector<RuleParameter> parameters() const override;
    bool wants_more(const Repetitions &so_far) const override;
    bool budget_spent(const Repetitions &so_far) const override { return so_far.spent_s >= budget_s_; }

  private:
    int min_calls_, max_calls_;
    double budget_s_;
};

// The rounds of rank and compare: at least min_rounds, then until the noisiest shape's
// spread is below spread_target or budget_s has passed.
class SpreadRule : public StoppingRule {
  public:
    SpreadRule(double spread_target, double budget_s, int min_rounds = 2)
        : spread_target_(spread_target), budget_s_(budget_s), min_rounds_(min_rounds) {}
    std::string name() const override { return "spread target"; }
    std::vector<RuleParameter> parameters() const override;
    bool wants_more(const Repetitions &so_far) const override;
    bool budget_spent(const Repetitions &so_far) const override { return so_far.spent_s >= budget_s_; }

  private:
    double spread_target_, budget_s_;
    int min_rounds_;
};

} // namespace gemm
