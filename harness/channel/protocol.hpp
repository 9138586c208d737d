// The private channel between the supervisor and the referee: one JSON object per line.
// supervisor → referee: a testcase. referee → supervisor: hello, runner, call, judge,
// result. The deadline the supervisor enforces follows the phase the referee last
// announced. Only trusted processes hold this channel (runner_protocol.hpp is the
// runner's).
#pragma once

#include "measurement/sampling.hpp"
#include "testcases/testcase.hpp"
#include "verification/case_result.hpp"
#include "verification/check.hpp"

#include <nlohmann/json.hpp>

namespace gemm {

// How a case is to be run, decided once by the judge (judging/case_policy.hpp) and sent
// with every case: the worker follows it and reads no category names.
struct CasePolicy {
    bool timed = true;     // false: the checked call only (shrinking, stress, sanitizer, huge)
    bool baseline = false; // time cuBLAS SGEMM beside the solution
    bool shrink = false;   // a failure may be shrunk to its smallest shape (the judge's side)
    bool reveal = false;   // a failure may show the case's data (the judge's side)
    Precision precision = Precision::FP32;
    SamplingRule sampling;
    // A short run's calibration calls made between its calls (measurement/interleaved_calibration.hpp); false:
    // after them (compare, which tests raw times and wants its rounds short).
    bool calibration_between_calls = true;
};

struct CaseRequest {
    TestCase testcase;
    CasePolicy policy;
    std::uint64_t nonce = 0;  // echoed by every message about this case
    std::uint64_t secret = 0; // seeds the choices a solution must not predict (inputs, vectors, samples)
};

// Why a request cannot be run (a bad shape, data of the wrong size, a sampling rule
// that cannot end), or "": the worker answers such a request with JE, never RE.
std::string request_problem(const CaseRequest &request);

// A result that needs no worker to say it: the verdict and why, for the case's shape.
CaseResult result_for(const TestCase &tc, Verdict verdict, std::string detail);

// The field lists, generated: the channel's keys are the fields' own names, and a message
// missing one is rejected, never read as zero. The report a
// user reads is written elsewhere, key by key (command_line/reporters/json_reporter.hpp).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DeviceInfo, present, error, name, cc_major, cc_minor, sm_count, l2_bytes,
                                   memory_bytes, driver_version, cuda_driver_version, cuda_runtime_version,
                                   sm_clock_mhz, sm_clock_max_mhz, memory_clock_mhz)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CallClock, total_ms, hand_out_ms, runner_turn_ms, snapshot_ms)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CalibrationCost, kind, median_ms, spread_ms, samples, capped)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TimingSummary, samples, median_ms, min_ms, max_ms, q1_ms, q3_ms)
// With optional fields, which the macros do not convert: written out.
void to_json(nlohmann::json &j, const EmptyCall &e);
void from_json(const nlohmann::json &j, EmptyCall &e);
void to_json(nlohmann::json &j, const TimedRun &t);
void from_json(const nlohmann::json &j, TimedRun &t);
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PhaseTimes, generate, reference, solve, verify, timing, baseline)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Verification, calls, full_checks, projected_checks, projection_vectors,
                                   sampled_elements)

void to_json(nlohmann::json &j, const CaseRequest &r);
void from_json(const nlohmann::json &j, CaseRequest &r);
void to_json(nlohmann::json &j, const TestCase &tc);
void from_json(const nlohmann::json &j, TestCase &tc);
// The site's allclose as the channel carries it and the --json report shows it: the same keys
// ("passes" derived, not read back).
void to_json(nlohmann::json &j, const SiteAllclose &s);
void from_json(const nlohmann::json &j, SiteAllclose &s);
void to_json(nlohmann::json &j, const OutputCheck &o);
void from_json(const nlohmann::json &j, OutputCheck &o);
void to_json(nlohmann::json &j, const CaseResult &r);
void from_json(const nlohmann::json &j, CaseResult &r);

namespace event {
constexpr const char *hello = "hello";   // {device, failure}: the referee is ready
constexpr const char *runner = "runner"; // {solve_error, lost, why}: the solution's runner said hello (or not)
constexpr const char *call = "call";     // solve() is about to run: the case's time limit applies
constexpr const char *judge = "judge";   // the judge's own work: reference, checks, transfers
// The judge's calibration kernel is about to run in the solution's process: no call of
// solve(), but that process runs, so the case's time limit applies.
constexpr const char *calibration = "stand_in";
constexpr const char *result = "result"; // {result, worker_exits}
} // namespace event

} // namespace gemm
