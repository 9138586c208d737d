#include "channel/protocol.hpp"
#include "channel/runner_protocol.hpp"

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
    r.batch = tc.layout.batch;
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
               {"stand_ins_between_calls", p.calibration_between_calls}}},
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
    r.policy.calibration_between_calls = p.value("stand_ins_between_calls", true);
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
             {"structure_a", static_cast<int>(tc.generator.structure_a)},
             {"structure_b", static_cast<int>(tc.generator.structure_b)},
             {"mask_density", tc.generator.mask_density},
             {"layout", tc.layout},
             {"passes_nonzeros", tc.passes_nonzeros},
             {"seed", tc.generator.seed},
             {"explicit", tc.has_explicit_data},
             {"time_limit_s", tc.time_limit_s},
             {"dims", tc.dims},
             {"scalars", tc.scalars}};
    if (!tc.epilogue.empty()) j["epilogue"] = tc.epilogue;
    if (tc.site_tolerance) j["site_tolerance"] = {{"atol", tc.site_tolerance->atol}, {"rtol", tc.site_tolerance->rtol}};
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
    for (auto [key, into] :
         {std::pair{"structure_a", &tc.generator.structure_a}, {"structure_b", &tc.generator.structure_b}}) {
        const int value = j.value(key, 0);
        if (value < 0 || value > static_cast<int>(Structure::Masked)) throw std::invalid_argument("bad structure");
        *into = static_cast<Structure>(value);
    }
    j.at("low").get_to(tc.generator.low);
    j.at("high").get_to(tc.generator.high);
    j.at("seed").get_to(tc.generator.seed);
    j.at("explicit").get_to(tc.has_explicit_data);
    j.at("time_limit_s").get_to(tc.time_limit_s);
    tc.generator.mask_density = j.value("mask_density", 1.0);
    tc.layout = j.value("layout", ProductLayout{});
    tc.passes_nonzeros = j.value("passes_nonzeros", false);
    tc.dims = j.value("dims", std::vector<long long>{});
    tc.scalars = j.value("scalars", std::map<std::string, double>{});
    tc.epilogue = j.value("epilogue", Epilogue{});
    if (const auto site = j.find("site_tolerance"); site != j.end() && site->is_object())
        tc.site_tolerance = SiteTolerance{site->at("atol").get<double>(), site->at("rtol").get<double>()};
    if (tc.has_explicit_data) {
        j.at("A").get_to(tc.A);
        j.at("B").get_to(tc.B);
    }
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
    json j{{"A_modified", i.A_modified},
           {"B_modified", i.B_modified},
           {"floats_written_before_C", i.floats_written_before_C},
           {"floats_written_after_C", i.floats_written_after_C}};
    if (i.bias_modified) j["bias_modified"] = true;
    if (i.factor_modified) j["factor_modified"] = true;
    return j;
}

IntegrityCheck integrity_from(const json &j) {
    IntegrityCheck i;
    j.at("A_modified").get_to(i.A_modified);
    j.at("B_modified").get_to(i.B_modified);
    i.bias_modified = j.value("bias_modified", false);
    i.factor_modified = j.value("factor_modified", false);
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
    json j{{"call", f.call},
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
    if (f.full) j["full"] = *f.full;
    return j;
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
    if (const auto full = j.find("full"); full != j.end()) f.full = full->get<OutputCheck>();
    return f;
}

constexpr std::pair<RefereeWork, const char *> referee_endings[] = {{RefereeWork::Completed, "completed"},
                                                                    {RefereeWork::SolutionFailed, "solution_failed"},
                                                                    {RefereeWork::RefereeFailed, "judge_failed"}};

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
    if (o.site) j["site_allclose"] = *o.site;
    if (o.exact) {
        j["exact"] = true;
        j["explanation"] = o.explanation;
    }
}

void to_json(json &j, const SiteAllclose &s) {
    j = {{"atol", s.tolerance.atol},
         {"rtol", s.tolerance.rtol},
         {"elements", s.elements},
         {"outside", s.outside},
         {"passes", s.passes()}};
}

void from_json(const json &j, SiteAllclose &s) {
    s.tolerance = {j.at("atol").get<double>(), j.at("rtol").get<double>()};
    j.at("elements").get_to(s.elements);
    j.at("outside").get_to(s.outside);
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
    o.exact = j.value("exact", false);
    o.explanation = j.value("explanation", "");
    if (const auto site = j.find("site_allclose"); site != j.end() && site->is_object())
        o.site = site->get<SiteAllclose>();
}

namespace {

json optional_number(const std::optional<double> &x) { return x ? json(*x) : json(nullptr); }

std::optional<double> optional_number(const json &j, const char *key) {
    const auto found = j.find(key);
    if (found == j.end() || !found->is_number()) return std::nullopt;
    return found->get<double>();
}

} // namespace

void to_json(json &j, const EmptyCall &e) {
    j = json{{"median_ms", e.median_ms},
             {"spread_ms", e.spread_ms},
             {"samples", e.samples},
             {"measured_before_solution", e.measured_before_solution},
             {"median_phases", e.median_phases},
             {"own_events_ms", optional_number(e.own_events_ms)},
             {"stands_in_for_ms", optional_number(e.stands_in_for_ms)},
             {"empty_median_ms", e.empty_median_ms},
             {"capped", e.capped},
             {"stand_ins", e.calibrations},
             {"interleaved", e.interleaved},
             {"solution_process_excess_ms", optional_number(e.solution_process_excess_ms)},
             {"solution_process_samples", e.solution_process_samples}};
}

void from_json(const json &j, EmptyCall &e) {
    j.at("median_ms").get_to(e.median_ms);
    j.at("spread_ms").get_to(e.spread_ms);
    j.at("samples").get_to(e.samples);
    j.at("measured_before_solution").get_to(e.measured_before_solution);
    j.at("median_phases").get_to(e.median_phases);
    e.own_events_ms = optional_number(j, "own_events_ms");
    e.stands_in_for_ms = optional_number(j, "stands_in_for_ms");
    j.at("empty_median_ms").get_to(e.empty_median_ms);
    j.at("capped").get_to(e.capped);
    j.at("stand_ins").get_to(e.calibrations);
    j.at("interleaved").get_to(e.interleaved);
    e.solution_process_excess_ms = optional_number(j, "solution_process_excess_ms");
    j.at("solution_process_samples").get_to(e.solution_process_samples);
}

void to_json(json &j, const TimedRun &t) {
    j = json{{"stats", t.stats},
             {"samples_ms", t.samples_ms},
             {"raw_samples_ms", t.raw_samples_ms},
             {"empty_call", t.empty_call},
             {"median_phases", t.median_phases},
             {"own_events_ms", optional_number(t.own_events_ms)},
             {"own_events_samples_ms", t.own_events_samples_ms},
             {"sm_clock_mhz", t.sm_clock_mhz},
             {"throttled_samples", t.throttled_samples},
             {"throttled_samples_used", t.throttled_samples_used}};
}

void from_json(const json &j, TimedRun &t) {
    j.at("stats").get_to(t.stats);
    j.at("samples_ms").get_to(t.samples_ms);
    j.at("raw_samples_ms").get_to(t.raw_samples_ms);
    j.at("empty_call").get_to(t.empty_call);
    j.at("median_phases").get_to(t.median_phases);
    t.own_events_ms = optional_number(j, "own_events_ms");
    j.at("own_events_samples_ms").get_to(t.own_events_samples_ms);
    j.at("sm_clock_mhz").get_to(t.sm_clock_mhz);
    j.at("throttled_samples").get_to(t.throttled_samples);
    j.at("throttled_samples_used").get_to(t.throttled_samples_used);
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
