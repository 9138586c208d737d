// What one testcase produced: the data every later stage (supervisor, report) reads.
#pragma once

#include "core/check.hpp"
#include "core/stats.hpp"
#include "core/verdict.hpp"

#include <optional>
#include <string>

namespace gemm {

struct DeviceInfo {
    bool present = false;
    std::string error; // why no device, when !present
    std::string name;
    int cc_major = 0, cc_minor = 0, sm_count = 0;
    long long l2_bytes = 0, memory_bytes = 0;
    std::string driver_version; // NVML's "580.159.04" when available
    int cuda_driver_version = 0, cuda_runtime_version = 0;
    int sm_clock_mhz = 0, sm_clock_max_mhz = 0, memory_clock_mhz = 0;
    std::string arch() const { return "sm_" + std::to_string(cc_major) + std::to_string(cc_minor); }
};

struct TimedRun {
    TimingSummary stats;
    // Calls whose host-clock time (up to the device being idle) exceeded the event time:
    // work the solution left running where the events do not see it.
    int calls_with_unsynchronized_work = 0;
    bool host_clock_used = false;
    int sm_clock_mhz = 0; // read right after the timed calls
};

struct CaseResult {
    std::string name;
    int M = 0, N = 0, K = 0;
    Verdict verdict = Verdict::JE;
    std::string detail;
    std::optional<OutputCheck> check;
    std::optional<TimedRun> timing;
    std::optional<TimedRun> baseline; // cuBLAS SGEMM on the same inputs, same protocol
    std::string reference_method;
    bool failed_in_timed_calls = false; // right on the checked call, wrong on a later one
    std::string output_tail;            // the solution's stdout/stderr, bounded, filled by the supervisor
    double wall_seconds = 0;
};

} // namespace gemm
