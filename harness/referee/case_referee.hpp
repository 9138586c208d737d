// One testcase on the trusted side. The referee makes the inputs, the FP64 reference
// and every check, and keeps the clock; a runner process (runner/) makes the calls:
// the solution's runner calls solve(), the baseline runner calls cuBLAS SGEMM or
// nothing. The checked call is verified against the full reference, then (when the
// policy says so) the timed calls, each on fresh inputs drawn after the previous call
// returned and each verified, then cuBLAS under the same sampling rule and through
// the same path. It measures and collects figures; the verdicts come from verification/.
#pragma once

#include "channel/channel.hpp"
#include "channel/protocol.hpp"
#include "channel/runner_protocol.hpp"
#include "measurement/interleaved_calibration.hpp"
#include "measurement/sampling.hpp"
#include "referee/reference_cublas.hpp"
#include "referee/shared_arena.hpp"
#include "referee/trusted_clock.hpp"
#include "verification/case_result.hpp"

#include <array>
#include <cublas_v2.h>
#include <map>
#include <memory>

namespace gemm {

// The referee stopped a case and says why as a fact: `ending` is whose work failed
// (RefereeWork::SolutionFailed: the solution's runner died, broke the protocol, kept the
// GPU busy or holds the memory the case needs; RefereeFailed: the judge's own side, named),
// which the judge's verdict code reads (verification/case_verdict.cpp). `lost` when the
// solution's process is gone, which only the judge can describe; `call`: the call of solve()
// it failed in, 0 between calls. Any other exception is the referee's own failure.
struct CaseStopped : std::runtime_error {
    CaseStopped(RefereeWork ending, const std::string &what, bool lost = false, int call = 0)
        : std::runtime_error(what), ending(ending), lost(lost), call(call) {}
    RefereeWork ending;
    bool lost;
    int call;
};

// M, N, K, the batch's count, and whether the call hands out an epilogue's operands or a C of one
// number (1: any of them; the judge's calibration before the run is of plain shapes, 0): what
// an empty call's cost depends on.
using ShapeKey = std::array<long long, 5>;

class CaseReferee {
  public:
    CaseReferee(RefereeChannel &judge, RunnerLink &baseline, const DeviceInfo &device);
    ~CaseReferee();
    // The empty call's cost (verification/case_result.hpp) of each shape, measured by the
    // baseline runner before the solution's runner exists.
    void calibrate(const std::vector<ShapeKey> &shapes);
    void attach_solution(RunnerLink &solution) { solution_.link = &solution; }
    // The solution's runner failed and is gone: its successor gets fresh GPU memory (a new
    // arena, which every runner maps again), so that nothing of the failed one's process
    // that outlived it could reach the memory the next one is handed.
    void detach_solution();
    CaseResult run(const CaseRequest &request);

  private:
    struct Problem;
    class PhaseClock;
    struct Runner {
        RunnerLink *link = nullptr;
        int mapped_generation = -1;
        bool is_solution = false;
    };
    Problem &problem_for(int M, int N, int K, const ProductLayout &layout);
    static ShapeKey key_of(const Problem &p);
    void map_arena(Runner &runner);
    CallSample call(Runner &runner, Problem &p, RunnerWork work, int call_index, double calibration_ms = 0,
                    CalibrationKind kind = CalibrationKind::Light);
    // The empty call's cost, or with calibration_ms > 0 a calibration call's of that length and kind.
    EmptyCall measure_empty_calls(Problem &p, int calls, double calibration_ms = 0,
                                  CalibrationKind kind = CalibrationKind::Light);
    void run_checked_call(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock);
    OutputCheck check_against(Problem &p, const TestCase &tc, DeviceReference &ref, Precision precision);
    // One call's output against its own inputs, as every timed call's is: in full where the
    // problem is checked in full, else by projections and sampled elements. True when it passes.
    struct CallCheck {
        TimedCallCheck projected;
        std::optional<OutputCheck> full;
        Judgement judgement;
    };
    CallCheck verify_call(Problem &p, const TestCase &tc, Precision precision, std::uint64_t check_seed);
    // The calibration calls made between a run's calls (measurement/interleaved_calibration.hpp), each run's own.
    struct RunCalibration {
        std::optional<InterleavedCalibration> solution, cublas;
    };
    void run_timed_calls(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock,
                         std::optional<InterleavedCalibration> &calibrations);
    TimedRun time_cublas(Problem &p, const CaseRequest &request, std::optional<InterleavedCalibration> &calibrations);
    std::optional<InterleavedCalibration> interleaving_for(const Problem &p, const SamplingRule &rule) const;
    void calibrate_between(Problem &p, std::optional<InterleavedCalibration> &calibrations, double raw_ms,
                           bool in_solution_process_too);
    void settle_offset(Problem &p, CaseResult &r, const RunCalibration &interleaved);
    [[noreturn]] void blame_busy_gpu(const std::string &why);
    CaseResult run_case(const CaseRequest &request);
    // An allocation failed: the solution's failure when its process holds the memory the
    // case needs, else the judge's, naming who does (verification/memory_blame.hpp).
    [[noreturn]] void blame_out_of_memory(const TestCase &tc, const std::string &what);
    cublasHandle_t cublas();

    RefereeChannel &judge_;
    Runner solution_, baseline_;
    TrustedClock clock_;
    SharedArena arena_;
    int arena_generation_ = 0;
    std::unique_ptr<Problem> problem_;
    std::map<ShapeKey, EmptyCall> calibrated_;
    cublasHandle_t cublas_ = nullptr;
};

} // namespace gemm
