#include "channel/protocol.hpp"

#include <cmath>
#include <stdexcept>

namespace gemm {

using nlohmann::json;

CaseResult result_for(const TestCase &tc, Verdict verdict, std::string detail) {
    CaseResult r;
    r.name = tc.name;
    r.M = tc.M;
    r.N = tc.N;
    r.K = tc.K;
    r.verdict = verdict;
    r.detail = std::move(detail);
    return r;
}

std::string request_problem(const CaseRequest &r) {
    const TestCase &tc = r.testcase;
    if (tc.M < 1 || tc.N < 1 || tc.K < 1) return "the shape has a dimension below 1";
    if (tc.has_explicit_data && (tc.A.size() != std::size_t(tc.M) * tc.N || tc.B.size() != std::size_t(tc.N) * tc.K))
        return "the explicit data does not match the shape";
    const SamplingRule &s = r.policy.sampling;
    if (s.warmup_calls < 0 || s.min_samples < 1 || s.max_samples < s.min_samples || !(s.budget_s >= 0))
        return "the sampling rule cannot be followed";
    return "";
}

void to_json(json &j, const CaseRequest &r) {
    const CasePolicy &p = r.policy;
    j = json{{"case", r.testcase},
             {"policy",
              {{"timed", p.timed},
               {"baseline", p.baseline},
               {"shrink", p.shrink},
               {"reveal", p.reveal},
               {"precision", precision_name(p.precision)},
               {"warmup_calls", p.sampling.warmup_calls},
               {"min_samples", p.sampling.min_samples},
               {"max_samples", p.sampling.max_samples},
               {"budget_s", p.sampling.budget_s},
               {"stand_ins_between_calls", p.stand_ins_between_calls}}},
             {"nonce", r.nonce},
             {"secret", r.secret}};
}

void from_json(const json &j, CaseRequest &r) {
    j.at("case").get_to(r.testcase);
    const json &p = j.at("policy");
    p.at("timed").get_to(r.policy.timed);
    p.at("baseline").get_to(r.policy.baseline);
    p.at("shrink").get_to(r.policy.shrink);
    p.at("reveal").get_to(r.policy.reveal);
    const auto precision = parse_precision(p.at("precision").get<std::string>());
    if (!precision) throw std::invalid_argument("unknown precision " + p.at("precision").get<std::string>());
    r.policy.precision = *precision;
    p.at("warmup_calls").get_to(r.policy.sampling.warmup_calls);
    p.at("min_samples").get_to(r.policy.sampling.min_samples);
    p.at("max_samples").get_to(r.policy.sampling.max_samples);
    p.at("budget_s").get_to(r.policy.sampling.budget_s);
    r.policy.stand_ins_between_calls = p.value("stand_ins_between_calls", true);
    j.at("nonce").get_to(r.nonce);
    j.at("secret").get_to(r.secret);
}

void to_json(json &j, const TestCase &tc) {
    j = json{{"name", tc.name},
             {"category", tc.category},
             {"path", tc.path},
             {"M", tc.M},
             {"N", tc.N},
             {"K", tc.K},
             {"distribution", distribution_name(tc.generator.distribution)},
             {"low", tc.generator.low},
             {"high", tc.generator.high},
             {"density", tc.generator.density},
             {"seed", tc.generator.seed},
             {"explicit", tc.has_explicit_data},
             {"time_limit_s", tc.time_limit_s}};
    if (tc.has_explicit_data) {
        j["A"] = tc.A;
        j["B"] = tc.B;
    }
}

void from_json(const json &j, TestCase &tc) {
    j.at("name").get_to(tc.name);
    j.at("category").get_to(tc.category);
    j.at("path").get_to(tc.path);
    j.at("M").get_to(tc.M);
    j.at("N").get_to(tc.N);
    j.at("K").get_to(tc.K);
    tc.generator.distribution = distribution_from_name(j.at("distribution").get<std::string>());
    j.at("density").get_to(tc.generator.density);
    j.at("low").get_to(tc.generator.low);
    j.at("high").get_to(tc.generator.high);
    j.at("seed").get_to(tc.generator.seed);
    j.at("explicit").get_to(tc.has_explicit_data);
    j.at("time_limit_s").get_to(tc.time_limit_s);
    if (tc.has_explicit_data) {
        j.at("A").get_to(tc.A);
        j.at("B").get_to(tc.B);
    }
}

void to_json(json &j, const DeviceInfo &d) {
    j = json{{"present", d.present},
             {"error", d.error},
             {"name", d.name},
             {"compute_capability", d.arch()},
             {"cc_major", d.cc_major},
             {"cc_minor", d.cc_minor},
             {"sm_count", d.sm_count},
             {"l2_bytes", d.l2_bytes},
             {"memory_bytes", d.memory_bytes},
             {"driver_version", d.driver_version},
             {"cuda_driver_version", d.cuda_driver_version},
             {"cuda_runtime_version", d.cuda_runtime_version},
             {"sm_clock_mhz", d.sm_clock_mhz},
             {"sm_clock_max_mhz", d.sm_clock_max_mhz},
             {"memory_clock_mhz", d.memory_clock_mhz}};
}

void from_json(const json &j, DeviceInfo &d) {
    j.at("present").get_to(d.present);
    j.at("error").get_to(d.error);
    j.at("name").get_to(d.name);
    j.at("cc_major").get_to(d.cc_major);
    j.at("cc_minor").get_to(d.cc_minor);
    j.at("sm_count").get_to(d.sm_count);
    j.at("l2_bytes").get_to(d.l2_bytes);
    j.at("memory_bytes").get_to(d.memory_bytes);
    j.at("driver_version").get_to(d.driver_version);
    j.at("cuda_driver_version").get_to(d.cuda_driver_version);
    j.at("cuda_runtime_version").get_to(d.cuda_runtime_version);
    j.at("sm_clock_mhz").get_to(d.sm_clock_mhz);
    j.at("sm_clock_max_mhz").get_to(d.sm_clock_max_mhz);
    j.at("memory_clock_mhz").get_to(d.memory_clock_mhz);
}

namespace {

json bad_element_json(const std::optional<BadElement> &e) {
    if (!e) return nullptr;
    return json{{"row", e->row}, {"col", e->col}, {"expected", e->expected}, {"got", e->got}, {"bound", e->bound}};
}

std::optional<BadElement> bad_element_from(const json &j) {
    if (j.is_null()) return std::nullopt;
    BadElement e;
    j.at("row").get_to(e.row);
    j.at("col").get_to(e.col);
    j.at("expected").get_to(e.expected);
    // A NaN travels as null in JSON.
    e.got = j.at("got").is_null() ? std::nan("") : j.at("got").get<double>();
    j.at("bound").get_to(e.bound);
    return e;
}

json integrity_json(const IntegrityCheck &i) {
    return json{{"A_modified", i.A_modified},
                {"B_modified", i.B_modified},
                {"floats_written_before_C", i.floats_written_before_C},
                {"floats_written_after_C", i.floats_written_after_C}};
}

IntegrityCheck integrity_from(const json &j) {
    IntegrityCheck i;
    j.at("A_modified").get_to(i.A_modified);
    j.at("B_modified").get_to(i.B_modified);
    j.at("floats_written_before_C").get_to(i.floats_written_before_C);
    j.at("floats_written_after_C").get_to(i.floats_written_after_C);
    return i;
}

// JSON has no NaN or infinity: those travel as text, so a check's figure keeps its meaning
// (an infinite error must not come back as a NaN that compares false with every bound).
json exact_number(double x) {
    if (std::isfinite(x)) return x;
    return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
}

double number_from(const json &j) {
    if (j.is_number()) return j.get<double>();
    const std::string text = j.get<std::string>();
    if (text == "inf") return INFINITY;
    if (text == "-inf") return -INFINITY;
    if (text == "nan") return std::nan("");
    throw std::invalid_argument("not a number: " + text);
}

json timed_call_json(const FailedTimedCall &f) {
    const ProjectionTally &p = f.check.projection;
    const SampleTally &s = f.check.samples;
    return json{{"call", f.call},
                {"projection",
                 {{"vectors", p.vectors},
                  {"rows_checked", p.rows_checked},
                  {"rows_failed", p.rows_failed},
                  {"first_failed_row", p.first_failed_row},
                  {"first_difference", exact_number(p.first_difference)},
                  {"first_bound", exact_number(p.first_bound)},
                  {"worst_ratio", exact_number(p.worst_ratio)}}},
                {"samples",
                 {{"samples", s.samples},
                  {"out_of_bound", s.out_of_bound},
                  {"non_finite", s.non_finite},
                  {"unwritten", s.unwritten},
                  {"first_bad", bad_element_json(s.first_bad)},
                  {"error_sq", exact_number(s.error_sq)},
                  {"reference_sq", exact_number(s.reference_sq)}}},
                {"integrity", integrity_json(f.check.integrity)}};
}

FailedTimedCall timed_call_from(const json &j) {
    FailedTimedCall f;
    j.at("call").get_to(f.call);
    const json &p = j.at("projection"), &s = j.at("samples");
    ProjectionTally &pt = f.check.projection;
    p.at("vectors").get_to(pt.vectors);
    p.at("rows_checked").get_to(pt.rows_checked);
    p.at("rows_failed").get_to(pt.rows_failed);
    p.at("first_failed_row").get_to(pt.first_failed_row);
    pt.first_difference = number_from(p.at("first_difference"));
    pt.first_bound = number_from(p.at("first_bound"));
    pt.worst_ratio = number_from(p.at("worst_ratio"));
    SampleTally &st = f.check.samples;
    s.at("samples").get_to(st.samples);
    s.at("out_of_bound").get_to(st.out_of_bound);
    s.at("non_finite").get_to(st.non_finite);
    s.at("unwritten").get_to(st.unwritten);
    st.first_bad = bad_element_from(s.at("first_bad"));
    st.error_sq = number_from(s.at("error_sq"));
    st.reference_sq = number_from(s.at("reference_sq"));
    f.check.integrity = integrity_from(j.at("integrity"));
    return f;
}

constexpr std::pair<RefereeEnding, const char *> referee_endings[] = {
    {RefereeEnding::Completed, "completed"},
    {RefereeEnding::SolutionFailed, "solution_failed"},
    {RefereeEnding::JudgeFailed, "judge_failed"}};

json facts_json(const RefereeFacts &f) {
    const char *ending = "judge_failed";
    for (const auto &[value, name] : referee_endings)
        if (value == f.ending) ending = name;
    return json{{"ending", ending},
                {"why", f.why},
                {"checked_integrity", f.checked_integrity ? integrity_json(*f.checked_integrity) : json(nullptr)},
                {"failed_timed_call", f.failed_timed_call ? timed_call_json(*f.failed_timed_call) : json(nullptr)}};
}

RefereeFacts facts_from(const json &j) {
    RefereeFacts f;
    const std::string ending = j.at("ending").get<std::string>();
    bool known = false;
    for (const auto &[value, name] : referee_endings)
        if (ending == name) {
            f.ending = value;
            known = true;
        }
    if (!known) throw std::invalid_argument("unknown ending of the referee's work: " + ending);
    j.at("why").get_to(f.why);
    if (!j.at("checked_integrity").is_null()) f.checked_integrity = integrity_from(j.at("checked_integrity"));
    if (!j.at("failed_timed_call").is_null()) f.failed_timed_call = timed_call_from(j.at("failed_timed_call"));
    return f;
}

} // namespace

void to_json(json &j, const OutputCheck &o) {
    j = json{{"precision", precision_name(o.precision)},
             {"normwise_error", o.normwise_error},
             {"error_class", o.error_class},
             {"map", o.map},
             {"pattern", o.pattern},
             {"elementwise_ratio", o.elementwise_ratio},
             {"normwise_ratio", o.normwise_ratio},
             {"elements", o.elements},
             {"out_of_bound", o.out_of_bound},
             {"non_finite", o.non_finite},
             {"unwritten", o.unwritten},
             {"first_out_of_bound", bad_element_json(o.first_out_of_bound)},
             {"first_non_finite", bad_element_json(o.first_non_finite)},
             {"first_unwritten", bad_element_json(o.first_unwritten)}};
}

void from_json(const json &j, OutputCheck &o) {
    // An infinite ratio (an error where the bound is 0) travels as null.
    o.elementwise_ratio = j.at("elementwise_ratio").is_null() ? INFINITY : j.at("elementwise_ratio").get<double>();
    o.normwise_ratio = j.at("normwise_ratio").is_null() ? INFINITY : j.at("normwise_ratio").get<double>();
    o.precision = parse_precision(j.at("precision").get<std::string>()).value_or(Precision::FP32);
    o.normwise_error = j.at("normwise_error").is_null() ? INFINITY : j.at("normwise_error").get<double>();
    j.at("error_class").get_to(o.error_class);
    j.at("map").get_to(o.map);
    j.at("pattern").get_to(o.pattern);
    j.at("elements").get_to(o.elements);
    j.at("out_of_bound").get_to(o.out_of_bound);
    j.at("non_finite").get_to(o.non_finite);
    j.at("unwritten").get_to(o.unwritten);
    o.first_out_of_bound = bad_element_from(j.at("first_out_of_bound"));
    o.first_non_finite = bad_element_from(j.at("first_non_finite"));
    o.first_unwritten = bad_element_from(j.at("first_unwritten"));
}

void to_json(json &j, const CallClock &c) {
    j = json{{"total", c.total_ms}, {"hand_out", c.hand_out_ms}, {"runner_turn", c.runner_turn_ms}, {"snapshot", c.snapshot_ms}};
}

void from_json(const json &j, CallClock &c) {
    c.total_ms = j.value("total", 0.0);
    c.hand_out_ms = j.value("hand_out", 0.0);
    c.runner_turn_ms = j.value("runner_turn", 0.0);
    c.snapshot_ms = j.value("snapshot", 0.0);
}

namespace {

json optional_ms(const std::optional<double> &ms) { return ms ? json(*ms) : json(nullptr); }

std::optional<double> optional_ms(const json &j, const char *key) {
    const auto found = j.find(key);
    if (found == j.end() || !found->is_number()) return std::nullopt;
    return found->get<double>();
}

} // namespace

void to_json(json &j, const StandInCost &c) {
    j = json{{"kind", c.kind},
             {"median_ms", c.median_ms},
             {"spread_ms", c.spread_ms},
             {"samples", c.samples},
             {"capped", c.capped}};
}

void from_json(const json &j, StandInCost &c) {
    j.at("kind").get_to(c.kind);
    j.at("median_ms").get_to(c.median_ms);
    c.spread_ms = j.value("spread_ms", 0.0);
    c.samples = j.value("samples", 0);
    c.capped = j.value("capped", false);
}

void to_json(json &j, const TimedRun &t) {
    const auto &s = t.stats;
    j = json{{"samples", s.samples},
             {"median_ms", s.median_ms},
             {"min_ms", s.min_ms},
             {"max_ms", s.max_ms},
             {"q1_ms", s.q1_ms},
             {"q3_ms", s.q3_ms},
             {"relative_spread", s.relative_spread()},
             {"clock", "referee globaltimer stamps, less an empty call or a stand-in of the same length"},
             {"empty_call",
              {{"median_ms", t.empty_call.median_ms},
               {"spread_ms", t.empty_call.spread_ms},
               {"samples", t.empty_call.samples},
               {"measured_before_solution", t.empty_call.measured_before_solution},
               {"phases_ms", t.empty_call.median_phases},
               {"own_events_ms", optional_ms(t.empty_call.own_events_ms)},
               {"stands_in_for_ms", optional_ms(t.empty_call.stands_in_for_ms)},
               {"empty_median_ms", t.empty_call.stands_in_for_ms ? t.empty_call.empty_median_ms : t.empty_call.median_ms},
               {"capped", t.empty_call.capped},
               {"stand_ins", t.empty_call.stand_ins},
               {"interleaved", t.empty_call.interleaved},
               {"solution_process_excess_ms", optional_ms(t.empty_call.solution_process_excess_ms)},
               {"solution_process_samples", t.empty_call.solution_process_samples}}},
             {"phases_ms", t.median_phases},
             {"own_events_ms", optional_ms(t.own_events_ms)},
             {"own_events_samples_ms", t.own_events_samples_ms},
             {"sm_clock_mhz", t.sm_clock_mhz},
             {"samples_ms", t.samples_ms},
             {"raw_samples_ms", t.raw_samples_ms},
             {"throttled_samples", t.throttled_samples},
             {"throttled_samples_used", t.throttled_samples_used}};
}

void from_json(const json &j, TimedRun &t) {
    auto &s = t.stats;
    j.at("samples").get_to(s.samples);
    j.at("median_ms").get_to(s.median_ms);
    j.at("min_ms").get_to(s.min_ms);
    j.at("max_ms").get_to(s.max_ms);
    j.at("q1_ms").get_to(s.q1_ms);
    j.at("q3_ms").get_to(s.q3_ms);
    j.at("sm_clock_mhz").get_to(t.sm_clock_mhz);
    t.samples_ms = j.value("samples_ms", std::vector<double>{});
    t.raw_samples_ms = j.value("raw_samples_ms", t.samples_ms);
    if (const auto e = j.find("empty_call"); e != j.end() && e->is_object()) {
        t.empty_call.median_ms = e->value("median_ms", 0.0);
        t.empty_call.spread_ms = e->value("spread_ms", 0.0);
        t.empty_call.samples = e->value("samples", 0);
        t.empty_call.measured_before_solution = e->value("measured_before_solution", false);
        if (const auto p = e->find("phases_ms"); p != e->end() && p->is_object()) p->get_to(t.empty_call.median_phases);
        t.empty_call.own_events_ms = optional_ms(*e, "own_events_ms");
        t.empty_call.stands_in_for_ms = optional_ms(*e, "stands_in_for_ms");
        t.empty_call.empty_median_ms = e->value("empty_median_ms", t.empty_call.median_ms);
        t.empty_call.capped = e->value("capped", false);
        if (const auto k = e->find("stand_ins"); k != e->end() && k->is_array())
            t.empty_call.stand_ins = k->get<std::vector<StandInCost>>();
        t.empty_call.interleaved = e->value("interleaved", false);
        t.empty_call.solution_process_excess_ms = optional_ms(*e, "solution_process_excess_ms");
        t.empty_call.solution_process_samples = e->value("solution_process_samples", 0);
    }
    if (const auto p = j.find("phases_ms"); p != j.end() && p->is_object()) p->get_to(t.median_phases);
    t.own_events_ms = optional_ms(j, "own_events_ms");
    t.own_events_samples_ms = j.value("own_events_samples_ms", std::vector<double>{});
    t.throttled_samples = j.value("throttled_samples", 0);
    t.throttled_samples_used = j.value("throttled_samples_used", false);
}

void to_json(json &j, const PhaseTimes &p) {
    j = json{{"generate", p.generate}, {"reference", p.reference}, {"solve", p.solve},
             {"verify", p.verify},     {"timing", p.timing},       {"baseline", p.baseline}};
}

void from_json(const json &j, PhaseTimes &p) {
    p.generate = j.value("generate", 0.0);
    p.reference = j.value("reference", 0.0);
    p.solve = j.value("solve", 0.0);
    p.verify = j.value("verify", 0.0);
    p.timing = j.value("timing", 0.0);
    p.baseline = j.value("baseline", 0.0);
}

void to_json(json &j, const Verification &v) {
    j = json{{"calls", v.calls},
             {"full_checks", v.full_checks},
             {"projected_checks", v.projected_checks},
             {"projection_vectors", v.projection_vectors},
             {"sampled_elements", v.sampled_elements},
             {"how", describe(v)}};
}

void from_json(const json &j, Verification &v) {
    v.calls = j.value("calls", 0);
    v.full_checks = j.value("full_checks", 0);
    v.projected_checks = j.value("projected_checks", 0);
    v.projection_vectors = j.value("projection_vectors", 0);
    v.sampled_elements = j.value("sampled_elements", 0);
}

void to_json(json &j, const CaseResult &r) {
    j = json{{"name", r.name},
             {"M", r.M},
             {"N", r.N},
             {"K", r.K},
             {"verdict", verdict_name(r.verdict)},
             {"detail", r.detail},
             {"reference", r.reference_method},
             {"output_tail", r.output_tail},
             {"failed_in_timed_calls", r.failed_in_timed_calls},
             {"runner_lost", r.runner_lost},
             {"failed_call", r.failed_call},
             {"phases_s", r.phases},
             {"verification", r.verification},
             {"wall_seconds", r.wall_seconds}};
    j["check"] = r.check ? json(*r.check) : json(nullptr);
    j["timing"] = r.timing ? json(*r.timing) : json(nullptr);
    j["baseline_cublas"] = r.baseline ? json(*r.baseline) : json(nullptr);
    j["facts"] = facts_json(r.facts);
}

void from_json(const json &j, CaseResult &r) {
    j.at("name").get_to(r.name);
    j.at("M").get_to(r.M);
    j.at("N").get_to(r.N);
    j.at("K").get_to(r.K);
    r.verdict = parse_verdict(j.at("verdict").get<std::string>()).value_or(Verdict::JE);
    j.at("detail").get_to(r.detail);
    j.at("reference").get_to(r.reference_method);
    r.failed_in_timed_calls = j.value("failed_in_timed_calls", false);
    r.runner_lost = j.value("runner_lost", false);
    r.failed_call = j.value("failed_call", 0);
    j.at("output_tail").get_to(r.output_tail);
    j.at("wall_seconds").get_to(r.wall_seconds);
    if (j.contains("phases_s")) j.at("phases_s").get_to(r.phases);
    if (j.contains("verification")) j.at("verification").get_to(r.verification);
    if (!j.at("check").is_null()) r.check = j.at("check").get<OutputCheck>();
    if (!j.at("timing").is_null()) r.timing = j.at("timing").get<TimedRun>();
    if (!j.at("baseline_cublas").is_null()) r.baseline = j.at("baseline_cublas").get<TimedRun>();
    if (j.contains("facts")) r.facts = facts_from(j.at("facts"));
}

} // namespace gemm
