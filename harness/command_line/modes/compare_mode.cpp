#include "command_line/history/history.hpp"
#include "command_line/modes/rank_mode.hpp"
#include "command_line/modes/ranked_set.hpp"
#include "command_line/modes/session.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "judging/case_policy.hpp"
#include "measurement/sampling.hpp"
#include "measurement/significance.hpp"
#include "measurement/stats.hpp"
#include "testcases/problem.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>

namespace gemm {

namespace {

constexpr double compare_round_budget_s = 0.1;
constexpr int compare_round_calls = 20;

// One side's timing of one shape: its calls round by round (a live compare's rounds, a rank
// report's, or a judge report's one), as the clock measured them and with the side's own
// measured cost of the path taken off, and those costs (one a round, or the report's one).
struct SideTiming : SideRounds {
    int M = 0, N = 0, K = 0;
    bool has_raw() const {
        return !raw_rounds_ms.empty() && raw_rounds_ms.size() == rounds_ms.size() && !offsets_ms.empty();
    }
    static std::vector<double> pooled(const Rounds &rounds) {
        std::vector<double> all;
        for (const auto &round : rounds) all.insert(all.end(), round.begin(), round.end());
        return all;
    }
    std::vector<double> pooled() const { return pooled(rounds_ms); }
};
using Timings = std::map<std::string, SideTiming>; // by case name

// "#12" → 12, the attempt's id; a UsageError naming the argument otherwise.
long long attempt_id(const std::string &side) {
    const std::string digits = side.substr(1);
    if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos)
        throw UsageError(side + ": a history attempt is # and its id, e.g. #12 (./judge history lists them)");
    return std::stoll(digits);
}

// A case's samples split back into the rounds a rank report's row names, else one round.
Rounds rounds_of(const std::vector<double> &samples, const nlohmann::json *sizes) {
    if (!sizes || !sizes->is_array()) return {samples};
    Rounds rounds;
    std::size_t start = 0;
    for (const auto &size : *sizes) {
        if (!size.is_number_unsigned()) return {samples};
        const std::size_t n = size.get<std::size_t>();
        if (start + n > samples.size()) return {samples};
        rounds.emplace_back(samples.begin() + std::ptrdiff_t(start), samples.begin() + std::ptrdiff_t(start + n));
        start += n;
    }
    return start == samples.size() ? rounds : Rounds{samples};
}

// A --json report of a judge or rank run, or a history attempt (#ID, whose report it keeps);
// `problem`: the problem it judged (a report written before problems: the default one).
Timings timings_of_report(const std::string &side, const JudgeOptions &options, std::string &problem) {
    nlohmann::json report;
    if (side.rfind('#', 0) == 0) {
        const long long id = attempt_id(side);
        const auto attempt =
            History::open(options.history.path.empty() ? default_history_path() : options.history.path,
                          options.history.path.empty() ? HistoryPlace::default_place : HistoryPlace::named)
                .attempt(id);
        if (!attempt) throw UsageError(side + ": no such attempt in the history");
        report = nlohmann::json::parse(attempt->report_json);
        problem = attempt->problem;
    } else {
        std::ifstream in(side);
        report = nlohmann::json::parse(in, nullptr, false);
        if (report.is_discarded() || !report.contains("cases")) throw UsageError(side + ": not a judge JSON report");
        const auto named = report.find("problem");
        problem = named != report.end() && named->is_string() ? named->get<std::string>() : default_problem().name;
    }
    std::map<std::string, const nlohmann::json *> round_sizes;
    if (report.contains("rank") && report["rank"].contains("rows"))
        for (const auto &row : report["rank"]["rows"])
            if (row.contains("round_sizes") && row.contains("name") && row["name"].is_string())
                round_sizes[row["name"].get<std::string>()] = &row["round_sizes"];
    Timings timings;
    for (const auto &c : report["cases"]) {
        if (c["timing"].is_null() || !c["timing"].contains("samples_ms")) continue;
        const auto samples = c["timing"]["samples_ms"].get<std::vector<double>>();
        if (samples.empty()) continue;
        const std::string name = c["name"].get<std::string>();
        const auto sizes = round_sizes.find(name);
        const nlohmann::json *round_sizes_of_case = sizes == round_sizes.end() ? nullptr : sizes->second;
        SideTiming t;
        t.M = c["M"];
        t.N = c["N"];
        t.K = c["K"];
        t.rounds_ms = rounds_of(samples, round_sizes_of_case);
        const auto &timing = c["timing"];
        if (timing.contains("raw_samples_ms") && timing.contains("empty_call") && timing["empty_call"].is_object()) {
            const auto raw = timing["raw_samples_ms"].get<std::vector<double>>();
            if (raw.size() == samples.size()) {
                t.raw_rounds_ms = rounds_of(raw, round_sizes_of_case);
                t.offsets_ms = {timing["empty_call"].value("median_ms", 0.0)};
            }
        }
        timings[name] = std::move(t);
    }
    return timings;
}

// Two sides compared on the clock's own times, with one cost of the path for both taken
// off for display: each side measures that cost itself (its referee, its empty calls and
// calibration calls), and an error of a few µs in one side's measurement held through every round is
// a difference no interval over rounds can see (cuBLAS against itself was once called
// faster that way: docs/perf-notes.md, compare). Taking one constant off both sides changes
// no test, and the interval's ends are mapped through it.
ComparedShape compare_raw(const std::string &name, const SideTiming &before, const SideTiming &after,
                          const BootstrapRule &rule) {
    std::vector<double> offsets = before.offsets_ms;
    offsets.insert(offsets.end(), after.offsets_ms.begin(), after.offsets_ms.end());
    const double offset = summarize(offsets).median_ms;
    const auto old_raw = SideTiming::pooled(before.raw_rounds_ms), new_raw = SideTiming::pooled(after.raw_rounds_ms);
    const RankTest test = mann_whitney_u(old_raw, new_raw);
    const RatioInterval raw = median_ratio_interval(after.raw_rounds_ms, before.raw_rounds_ms, rule);
    const double new_ms = std::max(summarize(new_raw).median_ms - offset, shortest_call_ms);
    const double old_ms = std::max(summarize(old_raw).median_ms - offset, shortest_call_ms);
    // old/new raw = q  →  (q·new_raw − offset) / (new_raw − offset): increasing in q, 1 at 1.
    const auto taken_off = [&](double q) { return std::max(q * (new_ms + offset) - offset, 0.0) / new_ms; };
    RatioInterval speedup = raw;
    speedup.ratio = old_ms / new_ms;
    speedup.low = std::min(taken_off(raw.low), speedup.ratio);
    speedup.high = std::max(taken_off(raw.high), speedup.ratio);
    return {name,    {before.M, before.N, before.K}, old_ms, new_ms, test.p_value,
            speedup, significant(raw, test.p_value), true,   before, after};
}

// Every shape's interval at the family-wise level of all the shapes compared: nine shapes
// read at 99% each would call a solution against itself a change somewhere one run in
// eleven (docs/perf-notes.md, compare: a solution against itself).
// `live`: the two sides were timed here, round r of each back to back, so their rounds are
// resampled paired (measurement/significance.hpp); two reports' rounds are not.
std::vector<ComparedShape> compare_timings(const Timings &old_side, const Timings &new_side, bool live) {
    std::size_t common = 0;
    for (const auto &entry : old_side) common += new_side.count(entry.first);
    BootstrapRule rule = family_wise_rule(common);
    rule.paired_rounds = live;
    std::vector<ComparedShape> rows;
    for (const auto &[name, before] : old_side) {
        const auto after = new_side.find(name);
        if (after == new_side.end()) continue;
        if (before.has_raw() && after->second.has_raw()) {
            rows.push_back(compare_raw(name, before, after->second, rule));
            continue;
        }
        const RankTest test = mann_whitney_u(before.pooled(), after->second.pooled());
        const RatioInterval speedup = median_ratio_interval(after->second.rounds_ms, before.rounds_ms, rule);
        rows.push_back({name,
                        {before.M, before.N, before.K},
                        summarize(before.pooled()).median_ms,
                        summarize(after->second.pooled()).median_ms,
                        test.p_value,
                        speedup,
                        significant(speedup, test.p_value),
                        false,
                        before,
                        after->second});
    }
    return rows;
}

// Holds one side's events until both sides are compiled, so that the run says a CE of
// either side, not "no GPU" after compiling only the first.
class HeldEvents : public Reporter {
  public:
    void run_started(const RunContext &run) override {
        held_.push_back([run](Reporter &to) { to.run_started(run); });
    }
    void compile_failed(const RunContext &run, const std::string &message) override {
        held_.push_back([run, message](Reporter &to) { to.compile_failed(run, message); });
    }
    void note(const std::string &text) override {
        held_.push_back([text](Reporter &to) { to.note(text); });
    }
    void case_skipped(const TestCase &tc, const std::string &why) override {
        held_.push_back([tc, why](Reporter &to) { to.case_skipped(tc, why); });
    }
    void case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) override {
        held_.push_back([r, tc, policy](Reporter &to) { to.case_finished(r, tc, policy); });
    }
    void no_gpu(const NoGpu &why) override {
        held_.push_back([why](Reporter &to) { to.no_gpu(why); });
    }
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override {
        finished_ = [run, results, exit_status](Reporter &to) { to.run_finished(run, results, exit_status); };
    }
    // Every event; the run's end only when `with_end`, so a run is ended once.
    void replay(Reporter &to, bool with_end) const {
        for (const auto &event : held_) event(to);
        if (with_end && finished_) finished_(to);
    }

  private:
    std::vector<std::function<void(Reporter &)>> held_;
    std::function<void(Reporter &)> finished_;
};

// One side of a compare while both compile: reporters that only hold its events, and the
// holder inside them, to replay once the outcome of both sides is known.
struct HeldSide {
    Reporters reporters;
    HeldEvents *events;
    HeldSide() : events(new HeldEvents) { reporters.add(std::unique_ptr<Reporter>(events)); }
};

// Both sides are compiled and their workers started before either's outcome is told: the
// exit status when no shape can be timed is CE when either side has one (each CE told),
// else the first side's other status (no GPU).
std::optional<int> prepare_both(Session &before, Session &after, HeldSide &old_held, HeldSide &new_held,
                                const std::vector<TestCase> &ranked, std::unique_ptr<Supervisor> &old_worker,
                                std::unique_ptr<Supervisor> &new_worker, Reporters &report) {
    const auto old_status = before.prepare(ranked, old_worker);
    const auto new_status = after.prepare(ranked, new_worker);
    const int ce = exit_status_for(Verdict::CE);
    const bool old_ce = old_status == ce, new_ce = new_status == ce;
    if (old_ce || new_ce) {
        if (old_ce) old_held.events->replay(report, !new_ce);
        if (new_ce) new_held.events->replay(report, true);
        return ce;
    }
    old_held.events->replay(report, !new_status);
    new_held.events->replay(report, !old_status || new_status);
    return old_status ? old_status : new_status;
}

// A compare round's policy: no cuBLAS (nothing here reads it), and unless --time-budget
// is given, at most 20 calls in 0.1 s. What moves a shape's ratio is how far the rounds
// disagree, not the calls within one (a round's median is steadier than the rounds agree
// with each other: docs/perf-notes.md, compare). Shorter rounds buy more of them in the same
// --rank-budget. Its calibration calls come after a round's
// calls, not between them: compare tests the raw times, and calls between would only
// lengthen the rounds.
CasePolicy round_policy(const TestCase &tc, const JudgeOptions &options) {
    CasePolicy policy = policy_for(tc, options.case_run);
    policy.baseline = false;
    policy.calibration_between_calls = false;
    if (!options.case_run.time_budget_given) {
        policy.sampling.budget_s = std::min(policy.sampling.budget_s, compare_round_budget_s);
        policy.sampling.max_samples = std::min(policy.sampling.max_samples, compare_round_calls);
    }
    return policy;
}

// Times both solutions shape by shape, in rounds until both are steady, the side that
// goes first alternating from round to round.
std::optional<int> time_live(const JudgeOptions &options, Reporters &report, Timings &old_side, Timings &new_side) {
    const auto ranked = ranked_cases(options);
    HeldSide old_held, new_held;
    Session before(options, old_held.reporters, options.solution),
        after(options, new_held.reporters, options.rounds.other);
    std::unique_ptr<Supervisor> old_worker, new_worker;
    if (const auto status = prepare_both(before, after, old_held, new_held, ranked, old_worker, new_worker, report))
        return status;
    report.note("compare: " + options.solution + " (old) and " + options.rounds.other +
                " (new), interleaved shape by shape on " + before.context.device.name);
    CaseResult failure;
    std::string failed_side;
    const SpreadRule rule(options.rounds.spread_target, options.rounds.budget_s);
    const RoundsRun run =
        run_rounds(ranked, rule, before.progress, "compare", [&](std::size_t i) -> std::optional<double> {
            const TestCase &tc = ranked[i];
            double worst_spread = 0;
            // Old first in odd rounds, new first in even ones: whatever the side that goes
            // second inherits (clocks, the L2, the first side's runner just stopped) falls on
            // both sides alike and shows as rounds that disagree, not as a difference that
            // stays through every round (with the old side always first, cuBLAS against
            // itself came out significantly slower: docs/perf-notes.md, compare).
            const bool new_first = old_side[tc.name].rounds_ms.size() % 2 == 1;
            const std::array<Timings *, 2> order = new_first ? std::array<Timings *, 2>{&new_side, &old_side}
                                                             : std::array<Timings *, 2>{&old_side, &new_side};
            for (auto *side : order) {
                Supervisor &worker = side == &old_side ? *old_worker : *new_worker;
                const CaseResult r = worker.run_case(tc, round_policy(tc, options));
                if (r.verdict != Verdict::AC || !r.timing) {
                    failure = r;
                    failed_side = side == &old_side ? options.solution : options.rounds.other;
                    return std::nullopt;
                }
                SideTiming &t = (*side)[tc.name];
                t.M = tc.M;
                t.N = tc.N;
                t.K = tc.K;
                t.rounds_ms.push_back(r.timing->samples_ms);
                t.raw_rounds_ms.push_back(r.timing->raw_samples_ms);
                t.offsets_ms.push_back(r.timing->empty_call.median_ms);
                worst_spread = std::max(worst_spread, summarize(t.pooled()).relative_spread());
            }
            return worst_spread;
        });
    if (run.failed_case) {
        const TestCase &tc = ranked[*run.failed_case];
        report.case_finished(failure, tc, policy_for(tc, options.case_run));
        report.note("compare: " + failed_side + " is not AC on " + tc.name);
        return exit_status_for(failure.verdict);
    }
    return std::nullopt;
}

} // namespace

int compare(const JudgeOptions &options) {
    Reporters report = reporters_for(options);
    const bool live = std::filesystem::path(options.solution).extension() == ".cu";
    if (live != (std::filesystem::path(options.rounds.other).extension() == ".cu")) {
        std::cerr << "judge: compare takes two .cu solutions, or two reports (JSON files or history #IDs)\n";
        return exit_status::usage;
    }
    Timings old_side, new_side;
    try {
        if (live) {
            if (const auto status = time_live(options, report, old_side, new_side)) return *status;
        } else {
            std::string old_problem, new_problem;
            old_side = timings_of_report(options.solution, options, old_problem);
            new_side = timings_of_report(options.rounds.other, options, new_problem);
            // Two problems' cases may share names and shapes, but not what is computed.
            if (old_problem != new_problem)
                throw UsageError("compare: " + options.solution + " judged " + old_problem + " and " +
                                 options.rounds.other + " judged " + new_problem +
                                 ": two reports compare only within one problem");
        }
    } catch (const UsageError &e) {
        std::cerr << wrap_to_width("judge: " + std::string(e.what()), console_width, 2) << "\n";
        return exit_status::usage;
    } catch (const HistoryError &e) {
        std::cerr << wrap_to_width("judge: " + std::string(e.what()), console_width, 2) << "\n";
        return exit_status::setup;
    }
    CompareSummary summary;
    summary.old_name = options.solution;
    summary.new_name = options.rounds.other;
    summary.live = live;
    summary.shapes = compare_timings(old_side, new_side, live);
    if (summary.shapes.empty()) {
        std::cerr << "judge: the two sides have no timed case in common\n";
        return exit_status::usage;
    }
    report.compared(summary);
    RunContext context;
    context.solution = options.rounds.other;
    report.run_finished(context, {}, exit_status::all_accepted);
    return exit_status::all_accepted;
}

} // namespace gemm
