#include "command_line/reporters/json_reporter.hpp"
#include "command_line/reporters/report_file.hpp"

#include "channel/protocol.hpp"
#include "common/terminal_text.hpp"
#include "measurement/events_cross_check.hpp"
#include "measurement/stats.hpp"
#include "measurement/time_resolution.hpp"
#include "verification/check.hpp"
#include "verification/precision.hpp"

#include <cmath>
#include <map>

namespace gemm {

namespace {

using json = nlohmann::json;

// A ratio or an error that may be infinite (an error where the bound is 0) is null: JSON
// has no infinity.
json finite_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }
json optional_or_null(const std::optional<double> &x) { return x ? json(*x) : json(nullptr); }

json device_json(const DeviceInfo &d) {
    return {{"present", d.present},
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

// The check as the referee's channel encodes it (channel/protocol.cpp: one encoding of the
// keys), with what a report file needs on top: ratios that are infinite or NaN as null.
json check_json(const OutputCheck &o) {
    json j = o;
    for (const char *key : {"normwise_error", "elementwise_ratio", "normwise_ratio"})
        j[key] = finite_or_null(j[key].get<double>());
    return j;
}

// What a call cost the clock, phase by phase (measurement/timed_run.hpp: CallClock).
json phases_json(const CallClock &c) {
    return {{"total", c.total_ms},
            {"hand_out", c.hand_out_ms},
            {"runner_turn", c.runner_turn_ms},
            {"snapshot", c.snapshot_ms}};
}

json calibrations_json(const std::vector<CalibrationCost> &costs) {
    json all = json::array();
    for (const auto &c : costs)
        all.push_back({{"kind", c.kind},
                       {"median_ms", c.median_ms},
                       {"spread_ms", c.spread_ms},
                       {"samples", c.samples},
                       {"capped", c.capped}});
    return all;
}

json empty_call_json(const EmptyCall &e) {
    return {{"median_ms", e.median_ms},
            {"spread_ms", e.spread_ms},
            {"samples", e.samples},
            {"measured_before_solution", e.measured_before_solution},
            {"phases_ms", phases_json(e.median_phases)},
            {"own_events_ms", optional_or_null(e.own_events_ms)},
            {"stands_in_for_ms", optional_or_null(e.stands_in_for_ms)},
            {"empty_median_ms", e.stands_in_for_ms ? e.empty_median_ms : e.median_ms},
            {"capped", e.capped},
            {"stand_ins", calibrations_json(e.calibrations)},
            {"interleaved", e.interleaved},
            {"solution_process_excess_ms", optional_or_null(e.solution_process_excess_ms)},
            {"solution_process_samples", e.solution_process_samples}};
}

json timing_json(const TimedRun &t) {
    const auto &s = t.stats;
    return {{"samples", s.samples},
            {"median_ms", s.median_ms},
            {"min_ms", s.min_ms},
            {"max_ms", s.max_ms},
            {"q1_ms", s.q1_ms},
            {"q3_ms", s.q3_ms},
            {"relative_spread", s.relative_spread()},
            {"clock", "referee globaltimer stamps, less an empty call or a stand-in of the same length"},
            {"empty_call", empty_call_json(t.empty_call)},
            {"phases_ms", phases_json(t.median_phases)},
            {"own_events_ms", optional_or_null(t.own_events_ms)},
            {"own_events_samples_ms", t.own_events_samples_ms},
            {"sm_clock_mhz", t.sm_clock_mhz},
            {"samples_ms", t.samples_ms},
            {"raw_samples_ms", t.raw_samples_ms},
            {"throttled_samples", t.throttled_samples},
            {"throttled_samples_used", t.throttled_samples_used}};
}

json optional_timing_json(const std::optional<TimedRun> &t) { return t ? timing_json(*t) : json(nullptr); }

} // namespace

json case_report_json(const CaseResult &r) {
    json c = {{"name", r.name},
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
              {"phases_s",
               {{"generate", r.phases.generate},
                {"reference", r.phases.reference},
                {"solve", r.phases.solve},
                {"verify", r.phases.verify},
                {"timing", r.phases.timing},
                {"baseline", r.phases.baseline}}},
              {"verification",
               {{"calls", r.verification.calls},
                {"full_checks", r.verification.full_checks},
                {"projected_checks", r.verification.projected_checks},
                {"projection_vectors", r.verification.projection_vectors},
                {"sampled_elements", r.verification.sampled_elements},
                {"how", describe(r.verification)}}},
              {"wall_seconds", r.wall_seconds},
              {"check", r.check ? check_json(*r.check) : json(nullptr)},
              {"timing", optional_timing_json(r.timing)},
              {"baseline_cublas", optional_timing_json(r.baseline)},
              {"error_over_bound", error_over_bound(r)}};
    if (r.batch > 1) c["batch"] = r.batch; // a batched problem's products of M×N×K
    if (r.timing) c["gflops"] = gflops(flop_count(r.M, r.N, r.K, r.batch), r.timing->stats.median_ms);
    // How far the medians may move when judged again (measurement/time_resolution.hpp).
    if (r.timing) c["time_resolution_ms"] = time_resolution_ms(*r.timing);
    if (r.baseline) c["cublas_time_resolution_ms"] = time_resolution_ms(*r.baseline);
    // The medians as printed (measurement/time_resolution.hpp decides it once): a front end
    // shows this text, never a rounding of its own.
    if (r.timing) c["time_text"] = time_text(*r.timing);
    if (r.baseline) c["cublas_time_text"] = time_text(*r.baseline);
    if (r.timing && r.baseline) c["fraction_of_cublas"] = r.baseline->stats.median_ms / r.timing->stats.median_ms;
    for (const auto &[key, run] :
         {std::pair{"own_events_cross_check", &r.timing}, std::pair{"cublas_own_events_cross_check", &r.baseline}})
        if (*run)
            if (const auto check = cross_check_events(**run))
                c[key] = {{"clock_ms", check->clock_ms},
                          {"own_events_ms", check->events_ms},
                          {"tolerance_ms", check->tolerance_ms},
                          {"agree", check->agree}};
    return c;
}

json report_json(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    nlohmann::json cases = nlohmann::json::array();
    for (const auto &r : results) cases.push_back(case_report_json(r));
    std::map<std::string, int> counts;
    for (const auto &r : results) ++counts[verdict_name(r.verdict)];
    // No case judged (no GPU, nothing selected): no worst verdict, rather than AC for nothing.
    const nlohmann::json worst =
        results.empty() ? nlohmann::json() : nlohmann::json(verdict_name(worst_verdict(results)));
    const PrecisionTraits &precision = traits_of(parse_precision(run.precision).value_or(Precision::FP32));
    return made_valid_utf8(
        {{"schema_version", report_schema_version},
         {"solution", run.solution},
         {"problem", run.problem},
         {"compile",
          {{"arch", run.arch},
           {"cached", run.compile.cached},
           {"seconds", run.compile.seconds},
           {"command", run.compile.command},
           {"library", run.compile.library}}},
         {"device", device_json(run.device)},
         {"cpus", run.cpus},
         {"bounds",
          {{"precision", precision.name},
           {"unit_roundoff", fp32_unit_roundoff},
           {"input_unit_roundoff", precision.input_unit_roundoff},
           {"elementwise", precision.elementwise_text},
           {"normwise", precision.normwise_text},
           {"timed_calls", "Freivalds: |(C·x − A·(B·x))i| ≤ b·(|A|·(|B|·|x|))i·(1+2g) + 2g·((|A|·(|B|·|x|))i + "
                           "(|C|·|x|)i), b·(|A||B|)ij the elementwise bound, g = γ64_(N+K+2), for 2 random x ∈ {±1}^K; "
                           "1024 sampled elements held to "
                           "the elementwise bound, their normwise error to 3× the normwise bound"}}},
         {"time_budget_s", run.time_budget_s},
         {"correctness_time_budget_s", run.correctness_time_budget_s},
         {"judge_seconds",
          {{"waited_for_gpu", run.timeline.waited_for_gpu_s},
           {"probe", run.timeline.probe_s},
           {"compile", run.timeline.compile_s},
           {"waited_for_referee", run.timeline.waited_for_referee_s},
           {"runner_start", run.timeline.runner_start_s},
           {"cases", run.timeline.cases_s},
           {"total", run.timeline.total_s}}},
         {"cases", cases},
         {"summary", {{"counts", counts}, {"worst", worst}, {"exit_status", exit_status}}}});
}

nlohmann::json made_valid_utf8(nlohmann::json value) {
    if (value.is_string()) return valid_utf8(value.get_ref<const std::string &>());
    if (value.is_array()) {
        for (auto &element : value) element = made_valid_utf8(std::move(element));
        return value;
    }
    if (!value.is_object()) return value;
    nlohmann::json out = nlohmann::json::object();
    for (auto &[key, element] : value.items()) out[valid_utf8(key)] = made_valid_utf8(std::move(element));
    return out;
}

void SummariesAsJson::cases_not_run(const NotRun &not_run) {
    findings_["not_run"] = made_valid_utf8({{"cases", not_run.names}, {"why", not_run.why}});
}

nlohmann::json SummariesAsJson::whole_report(const RunContext &run, const std::vector<CaseResult> &results,
                                             int exit_status) const {
    auto report = report_json(run, results, exit_status);
    nlohmann::json findings = findings_;
    if (findings.contains("no_gpu")) {
        report["summary"]["no_gpu"] = findings["no_gpu"];
        findings.erase("no_gpu");
    }
    report.update(findings);
    return report;
}

void JsonReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    write_report_file(
        "--json", path_,
        whole_report(run, results, exit_status).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

} // namespace gemm
