// The supervisor ↔ worker channel: every message survives a trip through JSON text,
// including the NaN and infinite figures that JSON itself cannot spell.
#include <doctest/doctest.h>

#include "channel/protocol.hpp"
#include "channel/runner_protocol.hpp"

#include <cmath>
#include <limits>
#include <string>

using namespace gemm;
using nlohmann::json;

namespace {

// Serialize to text and back, as the channel does.
template <class T> T round_trip(const T &value) { return json::parse(json(value).dump()).get<T>(); }

TimedRun sample_timing() {
    TimedRun t;
    t.stats.samples = 17;
    t.stats.median_ms = 1.5;
    t.stats.min_ms = 1.25;
    t.stats.max_ms = 9.75;
    t.stats.q1_ms = 1.375;
    t.stats.q3_ms = 1.875;
    t.empty_call = EmptyCall{0.3125, 0.0078125, 15, true};
    t.raw_samples_ms = {1.8125, 1.5};
    t.samples_ms = {1.5, 1.1875};
    t.own_events_samples_ms = {1.25, 1.125};
    t.sm_clock_mhz = 1980;
    return t;
}

} // namespace

TEST_CASE("a generated testcase survives the trip through JSON") {
    TestCase tc;
    tc.name = "secret/18-integers-exact";
    tc.category = "secret";
    tc.path = "/suite/secret/18-integers-exact.case";
    tc.M = 250;
    tc.N = 310;
    tc.K = 190;
    tc.generator = GeneratorSpec{Distribution::Integers, -4, 4, 576460752303423487ull};
    tc.time_limit_s = 2.5;
    const auto back = round_trip(tc);
    CHECK(back.name == tc.name);
    CHECK(back.category == "secret");
    CHECK(back.path == tc.path);
    CHECK(back.M == 250);
    CHECK(back.N == 310);
    CHECK(back.K == 190);
    CHECK(back.generator.distribution == Distribution::Integers);
    CHECK(back.generator.low == -4.0);
    CHECK(back.generator.high == 4.0);
    CHECK(back.generator.seed == 576460752303423487ull); // 2^59 − 1, beyond a double's 53 bits
    CHECK_FALSE(back.has_explicit_data);
    CHECK(back.A.empty());
    CHECK(back.B.empty());
    CHECK(back.time_limit_s == 2.5);
}

TEST_CASE("a uniform testcase keeps fractional bounds exactly") {
    TestCase tc;
    tc.name = "perf/x";
    tc.category = "perf";
    tc.M = tc.N = tc.K = 3;
    tc.generator = GeneratorSpec{Distribution::Uniform, -0.1, 0.3, 5};
    const auto back = round_trip(tc);
    CHECK(back.generator.distribution == Distribution::Uniform);
    CHECK(back.generator.low == -0.1);
    CHECK(back.generator.high == 0.3);
    CHECK(back.time_limit_s == 0.0);
}

TEST_CASE("an explicit testcase carries its A and B bit for bit") {
    TestCase tc;
    tc.name = "sample/02-small-explicit";
    tc.category = "sample";
    tc.M = 1;
    tc.N = 3;
    tc.K = 2;
    tc.has_explicit_data = true;
    tc.A = {0.1f, -1e-30f, 3.4e38f};
    tc.B = {1.5f, -2.25f, 0.3f, 7.0f, 1e-7f, -0.0f};
    const auto j = json(tc);
    CHECK(j.at("explicit") == true);
    CHECK(j.contains("A"));
    const auto back = round_trip(tc);
    CHECK(back.has_explicit_data);
    CHECK(back.A == tc.A);
    CHECK(back.B == tc.B);
    CHECK(std::signbit(back.B[5]));
}

TEST_CASE("a generated testcase sends no matrices") {
    TestCase tc;
    tc.name = "secret/x";
    tc.A = {1, 2}; // left over; not explicit, so not sent
    const auto j = json(tc);
    CHECK_FALSE(j.contains("A"));
    CHECK_FALSE(j.contains("B"));
    CHECK(j.at("distribution") == "uniform");
}

TEST_CASE("device information survives the trip through JSON") {
    DeviceInfo d;
    d.present = true;
    d.error = "";
    d.name = "NVIDIA H200";
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.l2_bytes = 62914560;
    d.memory_bytes = 150754820096LL; // above 2^32
    d.driver_version = "580.159.04";
    d.cuda_driver_version = 13000;
    d.cuda_runtime_version = 12080;
    d.sm_clock_mhz = 1755;
    d.sm_clock_max_mhz = 1980;
    d.memory_clock_mhz = 3201;
    const auto back = round_trip(d);
    CHECK(back.present);
    CHECK(back.name == "NVIDIA H200");
    CHECK(back.cc_major == 9);
    CHECK(back.cc_minor == 0);
    CHECK(back.sm_count == 132);
    CHECK(back.l2_bytes == 62914560);
    CHECK(back.memory_bytes == 150754820096LL);
    CHECK(back.driver_version == "580.159.04");
    CHECK(back.cuda_driver_version == 13000);
    CHECK(back.cuda_runtime_version == 12080);
    CHECK(back.sm_clock_mhz == 1755);
    CHECK(back.sm_clock_max_mhz == 1980);
    CHECK(back.memory_clock_mhz == 3201);
}

TEST_CASE("an absent device keeps the reason it is absent") {
    DeviceInfo d;
    d.error = "no CUDA-capable device is detected";
    const auto back = round_trip(d);
    CHECK_FALSE(back.present);
    CHECK(back.error == "no CUDA-capable device is detected");
}

TEST_CASE("an output check with a NaN element and an infinite ratio travels with nulls") {
    OutputCheck o;
    o.elementwise_ratio = std::numeric_limits<double>::infinity();
    o.normwise_ratio = 3.5;
    o.elements = 1LL << 33;
    o.out_of_bound = 4;
    o.non_finite = 2;
    o.unwritten = 0;
    o.first_out_of_bound = BadElement{1, 2, 3.0, 4.5, 0.0};
    o.first_non_finite = BadElement{7, 8, -1.25, std::nan(""), 2e-6};
    const auto text = json(o).dump();
    CHECK(text.find("\"elementwise_ratio\":null") != std::string::npos);
    CHECK(text.find("\"got\":null") != std::string::npos);
    CHECK(text.find("\"first_unwritten\":null") != std::string::npos);

    const auto back = json::parse(text).get<OutputCheck>();
    CHECK(std::isinf(back.elementwise_ratio));
    CHECK(back.elementwise_ratio > 0);
    CHECK(back.normwise_ratio == 3.5);
    CHECK(back.elements == (1LL << 33));
    CHECK(back.out_of_bound == 4);
    CHECK(back.non_finite == 2);
    CHECK(back.unwritten == 0);
    REQUIRE(back.first_out_of_bound.has_value());
    CHECK(back.first_out_of_bound->row == 1);
    CHECK(back.first_out_of_bound->col == 2);
    CHECK(back.first_out_of_bound->expected == 3.0);
    CHECK(back.first_out_of_bound->got == 4.5);
    CHECK(back.first_out_of_bound->bound == 0.0);
    REQUIRE(back.first_non_finite.has_value());
    CHECK(back.first_non_finite->row == 7);
    CHECK(back.first_non_finite->col == 8);
    CHECK(back.first_non_finite->expected == -1.25);
    CHECK(std::isnan(back.first_non_finite->got));
    CHECK(back.first_non_finite->bound == 2e-6);
    CHECK_FALSE(back.first_unwritten.has_value());
}

TEST_CASE("the site's tolerance goes with its case, and the site's allclose comes back with the check") {
    TestCase tc;
    tc.name = "sample/01-one";
    tc.category = "sample";
    tc.M = tc.N = tc.K = 1;
    CHECK_FALSE(round_trip(tc).site_tolerance);
    tc.site_tolerance = SiteTolerance{2e-4, 3e-3};
    CHECK(round_trip(tc).site_tolerance == std::optional<SiteTolerance>(SiteTolerance{2e-4, 3e-3}));

    OutputCheck o;
    CHECK_FALSE(json::parse(json(o).dump()).get<OutputCheck>().site);
    o.site = SiteAllclose{{1e-4, 1e-4}, 1LL << 33, 17};
    const auto back = json::parse(json(o).dump()).get<OutputCheck>();
    REQUIRE(back.site);
    CHECK(back.site->tolerance == SiteTolerance{1e-4, 1e-4});
    CHECK(back.site->elements == (1LL << 33));
    CHECK(back.site->outside == 17);
}

TEST_CASE("an infinite normwise ratio also comes back infinite") {
    OutputCheck o;
    o.normwise_ratio = std::numeric_limits<double>::infinity();
    o.first_unwritten = BadElement{0, 5, 1.0, 2.0, 3.0};
    const auto back = round_trip(o);
    CHECK(std::isinf(back.normwise_ratio));
    CHECK(back.elementwise_ratio == 0.0);
    REQUIRE(back.first_unwritten.has_value());
    CHECK(back.first_unwritten->col == 5);
}

TEST_CASE("a timed run survives the trip through JSON") {
    const auto t = sample_timing();
    const auto back = round_trip(t);
    CHECK(back.stats.samples == 17);
    CHECK(back.stats.median_ms == 1.5);
    CHECK(back.stats.min_ms == 1.25);
    CHECK(back.stats.max_ms == 9.75);
    CHECK(back.stats.q1_ms == 1.375);
    CHECK(back.stats.q3_ms == 1.875);
    CHECK(back.empty_call.median_ms == 0.3125);
    CHECK(back.empty_call.spread_ms == 0.0078125);
    CHECK(back.empty_call.samples == 15);
    CHECK(back.empty_call.measured_before_solution);
    CHECK(back.raw_samples_ms == std::vector<double>{1.8125, 1.5});
    CHECK(back.samples_ms == std::vector<double>{1.5, 1.1875});
    CHECK(back.own_events_samples_ms == std::vector<double>{1.25, 1.125});
    CHECK(back.sm_clock_mhz == 1980);
    CHECK_FALSE(back.empty_call.stands_in_for_ms);
    CHECK(back.empty_call.empty_median_ms == t.empty_call.empty_median_ms);
}

TEST_CASE("a stand-in's cost comes back with its length, the empty call beside it, and its cap") {
    auto t = sample_timing();
    t.empty_call.stands_in_for_ms = 2.75;
    t.empty_call.empty_median_ms = 0.25;
    t.empty_call.capped = true;
    const auto back = round_trip(t);
    REQUIRE(back.empty_call.stands_in_for_ms);
    CHECK(*back.empty_call.stands_in_for_ms == 2.75);
    CHECK(back.empty_call.empty_median_ms == 0.25);
    CHECK(back.empty_call.capped);
    CHECK(back.empty_call.calibrations.empty());
}

TEST_CASE("what the stand-ins cost in the solution's process beyond the baseline's comes back, absent when not made") {
    auto t = sample_timing();
    CHECK_FALSE(round_trip(t).empty_call.solution_process_excess_ms);
    t.empty_call.solution_process_excess_ms = -0.00225;
    t.empty_call.solution_process_samples = 10;
    const auto back = round_trip(t);
    REQUIRE(back.empty_call.solution_process_excess_ms);
    CHECK(*back.empty_call.solution_process_excess_ms == -0.00225);
    CHECK(back.empty_call.solution_process_samples == 10);
}

TEST_CASE("a short run's stand-ins of every kind come back, each with its own cost and cap") {
    auto t = sample_timing();
    t.empty_call.stands_in_for_ms = 0.21;
    t.empty_call.calibrations = {{"light", 0.375, 0.004, 11, false},
                                 {"shared-memory", 0.402, 0.006, 11, false},
                                 {"streaming", 0.44, 0.002, 11, true}};
    const auto back = round_trip(t);
    REQUIRE(back.empty_call.calibrations.size() == 3);
    CHECK(back.empty_call.calibrations[1].kind == "shared-memory");
    CHECK(back.empty_call.calibrations[1].median_ms == 0.402);
    CHECK(back.empty_call.calibrations[1].spread_ms == 0.006);
    CHECK(back.empty_call.calibrations[1].samples == 11);
    CHECK(back.empty_call.calibrations[2].capped);
    CHECK_FALSE(back.empty_call.calibrations[0].capped);
}

TEST_CASE("a case result survives the trip through JSON with its optional parts") {
    CaseResult r;
    r.name = "secret/04-primes";
    r.M = 127;
    r.N = 131;
    r.K = 137;
    r.verdict = Verdict::TLE;
    r.detail = "solve() ran past 1.2 s";
    OutputCheck c;
    c.elementwise_ratio = 0.125;
    c.normwise_ratio = 0.0625;
    c.elements = 127 * 137;
    r.check = c;
    r.timing = sample_timing();
    r.reference_method = "cpu-fp64";
    r.output_tail = "hello\nworld\n";
    r.wall_seconds = 3.75;
    const auto back = round_trip(r);
    CHECK(back.name == "secret/04-primes");
    CHECK(back.M == 127);
    CHECK(back.N == 131);
    CHECK(back.K == 137);
    CHECK(back.verdict == Verdict::TLE);
    CHECK(back.detail == r.detail);
    REQUIRE(back.check.has_value());
    CHECK(back.check->elementwise_ratio == 0.125);
    CHECK(back.check->normwise_ratio == 0.0625);
    CHECK(back.check->elements == 127 * 137);
    REQUIRE(back.timing.has_value());
    CHECK(back.timing->stats.median_ms == 1.5);
    CHECK(back.timing->empty_call.samples == 15);
    CHECK_FALSE(back.baseline.has_value());
    CHECK(back.reference_method == "cpu-fp64");
    CHECK(back.output_tail == "hello\nworld\n");
    CHECK(back.wall_seconds == 3.75);
}

TEST_CASE("a case result with only a baseline and no check comes back the same way") {
    CaseResult r;
    r.name = "perf/01-cube-4096";
    r.verdict = Verdict::AC;
    r.baseline = sample_timing();
    const auto j = json(r);
    CHECK(j.at("check").is_null());
    CHECK(j.at("timing").is_null());
    CHECK(j.at("verdict") == "AC");
    const auto back = round_trip(r);
    CHECK(back.verdict == Verdict::AC);
    CHECK_FALSE(back.check.has_value());
    CHECK_FALSE(back.timing.has_value());
    REQUIRE(back.baseline.has_value());
    CHECK(back.baseline->stats.samples == 17);
}

TEST_CASE("an unknown verdict name is read as a judge error") {
    CaseResult r;
    r.name = "x";
    r.verdict = Verdict::AC;
    auto j = json(r);
    j["verdict"] = "MLE";
    CHECK(j.get<CaseResult>().verdict == Verdict::JE);
}

TEST_CASE("a message missing a field is rejected rather than read as zero") {
    auto j = json(sample_timing());
    j["stats"].erase("median_ms");
    CHECK_THROWS_AS(j.get<TimedRun>(), json::exception);
    j = json(sample_timing());
    j["empty_call"]["median_phases"].erase("snapshot_ms");
    CHECK_THROWS_AS(j.get<TimedRun>(), json::exception);
    auto device = json(DeviceInfo{});
    device.erase("sm_count");
    CHECK_THROWS_AS(device.get<DeviceInfo>(), json::exception);
}

TEST_CASE("a request the worker cannot follow is named before anything runs") {
    CaseRequest request;
    request.testcase.M = request.testcase.N = request.testcase.K = 4;
    CHECK(request_problem(request).empty());
    request.testcase.N = 0;
    CHECK(request_problem(request) == "the shape has a dimension below 1");
    request.testcase.N = 4;
    request.testcase.has_explicit_data = true;
    request.testcase.A.assign(16, 1.0f);
    CHECK(request_problem(request) == "the explicit data does not match the shape");
    request.testcase.B.assign(16, 1.0f);
    CHECK(request_problem(request).empty());
    request.policy.sampling.max_samples = 0;
    CHECK(request_problem(request) == "the sampling rule cannot be followed");
}

TEST_CASE("a case policy travels whole with its case") {
    CaseRequest request;
    request.testcase.name = "perf/x";
    request.testcase.M = request.testcase.N = request.testcase.K = 4;
    request.policy.timed = false;
    request.policy.baseline = true;
    request.policy.precision = Precision::BF16;
    request.policy.sampling.budget_s = 0.125;
    request.policy.sampling.min_samples = 7;
    CHECK(request.policy.calibration_between_calls);
    request.policy.calibration_between_calls = false;
    const CaseRequest back = nlohmann::json(request).get<CaseRequest>();
    CHECK_FALSE(back.policy.calibration_between_calls);
    CHECK_FALSE(back.policy.timed);
    CHECK(back.policy.baseline);
    CHECK(back.policy.precision == Precision::BF16);
    CHECK(back.policy.sampling.budget_s == 0.125);
    CHECK(back.policy.sampling.min_samples == 7);
}

TEST_CASE("a stand-in order carries its length to the runner, and other orders carry none") {
    CallOrder o;
    o.M = 4096;
    o.N = 4096;
    o.K = 4096;
    o.c_offset = 1 << 20;
    o.work = RunnerWork::Calibration;
    o.calibration_ns = 2'950'000;
    const json j = o;
    CHECK(j.at("work") == "stand-in");
    const CallOrder back = j.get<CallOrder>();
    CHECK(back.work == RunnerWork::Calibration);
    CHECK(back.calibration_ns == 2'950'000);
    CHECK(back.c_offset == std::size_t(1) << 20);
    CHECK(back.calibration_kind == CalibrationKind::Light);
    o.work = RunnerWork::Solve;
    CHECK_FALSE(json(o).contains("stand_in_ns"));
    CHECK_FALSE(json(o).contains("stand_in_kind"));
}

TEST_CASE(
    "a case's layout, masked density and nnz argument travel to the referee, and its call's scalars to the runner") {
    TestCase tc;
    tc.name = "sample/01";
    tc.M = 3;
    tc.N = 4;
    tc.K = 5;
    tc.layout.batch = 7;
    tc.layout.a_transposed = true;
    tc.generator.structure_a = Structure::Masked;
    tc.generator.mask_density = 0.35;
    tc.passes_nonzeros = true;
    const auto back = round_trip(tc);
    CHECK(back.layout == tc.layout);
    CHECK(back.generator.structure_a == Structure::Masked);
    CHECK(back.generator.mask_density == 0.35);
    CHECK(back.passes_nonzeros);
    CallOrder o;
    o.layout.batch = 3;
    o.layout.a_diagonal = true;
    o.scalars = {{"nnz", 41}};
    const CallOrder order = json(o).get<CallOrder>();
    CHECK(order.layout == o.layout);
    CHECK(order.scalars == o.scalars);
    json bad = o;
    bad["layout"]["batch"] = 0;
    CHECK_THROWS_AS(bad.get<CallOrder>(), std::invalid_argument);
}

TEST_CASE("a stand-in order names its kind, and an unknown kind is refused rather than run as another") {
    CallOrder o;
    o.work = RunnerWork::Calibration;
    o.calibration_ns = 400'000;
    for (CalibrationKind kind : every_calibration_kind) {
        o.calibration_kind = kind;
        const json j = o;
        CHECK(j.at("stand_in_kind") == calibration_kind_name(kind));
        CHECK(j.get<CallOrder>().calibration_kind == kind);
    }
    json j = o;
    j["stand_in_kind"] = "tensor-cores";
    CHECK_THROWS_WITH_AS(j.get<CallOrder>(), "unknown stand-in kind tensor-cores", std::invalid_argument);
}

TEST_CASE("the referee's facts travel whole: its ending, the checked call's integrity, a failing timed call") {
    CaseResult r;
    r.facts.ending = RefereeWork::Completed;
    r.facts.checked_integrity = IntegrityCheck{true, false, 12, 0};
    FailedTimedCall failed;
    failed.call = 9;
    failed.check.projection = {2, 254, 3, 17, std::nan(""), 1e-4, INFINITY};
    failed.check.samples.samples = 1024;
    failed.check.samples.non_finite = 1;
    failed.check.samples.first_bad = BadElement{5, 6, 1.5, std::nan(""), 1e-6};
    failed.check.samples.error_sq = INFINITY;
    failed.check.samples.reference_sq = 2.5;
    failed.check.integrity.floats_written_after_C = 4;
    r.facts.failed_timed_call = failed;
    const auto back = round_trip(r);
    CHECK(back.facts.ending == RefereeWork::Completed);
    REQUIRE(back.facts.checked_integrity);
    CHECK(back.facts.checked_integrity->A_modified);
    CHECK(back.facts.checked_integrity->floats_written_before_C == 12);
    REQUIRE(back.facts.failed_timed_call);
    const TimedCallCheck &c = back.facts.failed_timed_call->check;
    CHECK(back.facts.failed_timed_call->call == 9);
    CHECK(c.projection.rows_failed == 3);
    CHECK(std::isnan(c.projection.first_difference));
    // An infinite figure stays infinite: as a NaN it would compare false with every bound.
    CHECK(std::isinf(c.projection.worst_ratio));
    CHECK(std::isinf(c.samples.error_sq));
    CHECK(c.samples.reference_sq == 2.5);
    REQUIRE(c.samples.first_bad);
    CHECK(c.samples.first_bad->row == 5);
    CHECK(c.integrity.floats_written_after_C == 4);
    CHECK_FALSE(back.facts.failed_timed_call->full);

    CaseResult failed_solution;
    failed_solution.facts.ending = RefereeWork::SolutionFailed;
    failed_solution.facts.why = "a CUDA error";
    const auto again = round_trip(failed_solution);
    CHECK(again.facts.ending == RefereeWork::SolutionFailed);
    CHECK(again.facts.why == "a CUDA error");
    CHECK_FALSE(again.facts.checked_integrity);
    auto j = json(failed_solution);
    j["facts"]["ending"] = "made_up";
    CHECK_THROWS(j.get<CaseResult>());
}

TEST_CASE("an epilogue's facts travel whole: its operands modified, a timed call checked in full") {
    CaseResult r;
    r.facts.ending = RefereeWork::Completed;
    r.facts.checked_integrity = IntegrityCheck{};
    r.facts.checked_integrity->factor_modified = true;
    FailedTimedCall failed;
    failed.call = 3;
    failed.check.integrity.bias_modified = true;
    OutputCheck full;
    full.elements = 1;
    full.out_of_bound = 1;
    full.elementwise_ratio = 7.5;
    full.first_out_of_bound = BadElement{0, 0, 12.25, 11.0, 0.01};
    failed.full = full;
    r.facts.failed_timed_call = failed;
    const auto back = round_trip(r);
    REQUIRE(back.facts.checked_integrity);
    CHECK(back.facts.checked_integrity->factor_modified);
    CHECK_FALSE(back.facts.checked_integrity->bias_modified);
    REQUIRE(back.facts.failed_timed_call);
    CHECK(back.facts.failed_timed_call->check.integrity.bias_modified);
    REQUIRE(back.facts.failed_timed_call->full);
    CHECK(back.facts.failed_timed_call->full->elementwise_ratio == 7.5);
    REQUIRE(back.facts.failed_timed_call->full->first_out_of_bound);
    CHECK(back.facts.failed_timed_call->full->first_out_of_bound->expected == 12.25);
}

TEST_CASE("a call order carries the epilogue operands and steps, and an unknown step is refused") {
    CallOrder o;
    o.M = 3;
    o.N = 4;
    o.K = 5;
    o.layout.bias = true;
    o.layout.scalar_output = true;
    o.layout.element_bytes = 2;
    o.layout.c_read = true;
    o.bias_offset = 4096;
    o.epilogue.count = 2;
    o.epilogue.steps[0] = {EpilogueOp::Bias, 0};
    o.epilogue.steps[1] = {EpilogueOp::LeakyRelu, 0.01};
    const CallOrder back = json(o).get<CallOrder>();
    CHECK(back.layout == o.layout);
    CHECK(back.bias_offset == 4096);
    CHECK(back.factor_offset == 0);
    CHECK(back.epilogue == o.epilogue);
    json j = o;
    j["epilogue"][1]["op"] = 99;
    CHECK_THROWS_AS(j.get<CallOrder>(), std::invalid_argument);
}

TEST_CASE("a layout's BF16 elements travel, and BF16 of other than 2 bytes is refused") {
    CallOrder o;
    o.M = o.N = o.K = 8;
    o.layout.element_bytes = 2;
    o.layout.bfloat16 = true;
    CHECK(json(o).get<CallOrder>().layout == o.layout);
    CHECK_FALSE(json(o).get<CallOrder>().layout == ProductLayout{}); // the flag is not lost
    json j = o;
    j["layout"]["element_bytes"] = 4;
    CHECK_THROWS_AS(j.get<CallOrder>(), std::invalid_argument);
}
