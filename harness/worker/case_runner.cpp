#include "worker/case_runner.hpp"
#include "core/timed_check.hpp"
#include "worker/device_check.hpp"
#include "worker/device_info.hpp"
#include "worker/device_inputs.hpp"
#include "worker/guarded_buffer.hpp"
#include "worker/reference_cublas.hpp"

#include <chrono>
#include <nvtx3/nvToolsExt.h>

namespace gemm {

// The device memory of one shape: the inputs as the judge made them (pristine), the
// copies the solution gets between guard bands, C, and the projected check's scratch.
struct CaseRunner::Problem {
    Problem(int M, int N, int K)
        : M(M), N(N), K(K), pristine_A(std::size_t(M) * N), pristine_B(std::size_t(N) * K), A(pristine_A.size()),
          B(pristine_B.size()), C(std::size_t(M) * K), projection(M, N, K) {}

    void generate(const GeneratorSpec &spec, int input_set) {
        generate_on_device(spec, input_set, MatrixId::A, M, N, pristine_A.data());
        generate_on_device(spec, input_set, MatrixId::B, N, K, pristine_B.data());
        hand_out_inputs();
    }
    void upload(const std::vector<float> &a, const std::vector<float> &b) {
        cuda_check(cudaMemcpy(pristine_A.data(), a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
        cuda_check(cudaMemcpy(pristine_B.data(), b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
        hand_out_inputs();
    }
    void poison_output() { C.fill(0xFF); }

    // A and B against the judge's copies, and every guard band.
    IntegrityCheck integrity() {
        IntegrityCheck g;
        g.A_modified = A.inspect_guards().any() || projection.count_differences(A.data(), pristine_A.data(), A.size());
        g.B_modified = B.inspect_guards().any() || projection.count_differences(B.data(), pristine_B.data(), B.size());
        const GuardDamage damage = C.inspect_guards();
        g.floats_written_before_C = damage.floats_before;
        g.floats_written_after_C = damage.floats_after;
        return g;
    }

    int M, N, K;
    DeviceArray<float> pristine_A, pristine_B;
    GuardedBuffer A, B, C;
    ProjectionWorkspace projection;

  private:
    void hand_out_inputs() {
        A.copy_from(pristine_A.data());
        B.copy_from(pristine_B.data());
        for (GuardedBuffer *buffer : {&A, &B, &C}) buffer->fill_guards();
    }
};

// Wall time per phase, so the judge's own cost is visible next to the kernel's.
class CaseRunner::PhaseClock {
  public:
    explicit PhaseClock(PhaseTimes &times) : times_(times) {}
    template <typename Work> auto measure(double PhaseTimes::*phase, Work &&work) {
        const auto start = std::chrono::steady_clock::now();
        struct Add {
            PhaseTimes &times;
            double PhaseTimes::*phase;
            std::chrono::steady_clock::time_point start;
            ~Add() {
                times.*phase += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            }
        } add{times_, phase, start};
        return work();
    }

  private:
    PhaseTimes &times_;
};

CaseRunner::CaseRunner(SolveFunction solve, WorkerChannel &channel, const DeviceInfo &device)
    : solve_(solve), channel_(channel), timer_(static_cast<std::size_t>(device.l2_bytes)) {}

CaseRunner::~CaseRunner() {
    if (cublas_) cublasDestroy(cublas_);
}

cublasHandle_t CaseRunner::cublas() {
    if (!cublas_) cublas_check(cublasCreate(&cublas_), "cublasCreate");
    return cublas_;
}

// A solution that resets the device or leaves another one current would make the
// judge's own next CUDA call fail: name it as the solution's doing.
void CaseRunner::check_device_untouched(const Problem &p) const {
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess || device != 0)
        throw SolveFailure("solve() left device " + std::to_string(device) + " current; it must leave device 0 current");
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, p.C.data()) != cudaSuccess || attributes.type != cudaMemoryTypeDevice) {
        cudaGetLastError();
        throw SolveFailure("solve() reset the device (cudaDeviceReset?): the judge's buffers no longer exist");
    }
}

CallSample CaseRunner::invoke_solve(Problem &p, bool flush) {
    p.poison_output();
    if (flush) timer_.flush_l2();
    channel_.send({{"event", event::call}});
    CallSample sample;
    try {
        // The NVTX range lets a profiler (rank --profile) take the solution's kernels alone.
        sample = timer_.time(
            [&] {
                nvtxRangePushA("solve");
                solve_(p.A.data(), p.B.data(), p.C.data(), p.M, p.N, p.K);
                nvtxRangePop();
            },
            [&] { check_device_untouched(p); });
    } catch (const CudaFailure &e) {
        check_device_untouched(p);
        throw SolveFailure(std::string("CUDA error in solve(): ") + cudaGetErrorString(e.code));
    }
    check_device_untouched(p);
    channel_.send({{"event", event::judge}});
    return sample;
}

void CaseRunner::run_checked_call(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock) {
    const TestCase &tc = request.testcase;
    clock.measure(&PhaseTimes::generate, [&] {
        if (tc.has_explicit_data)
            p.upload(tc.A, tc.B);
        else
            p.generate(tc.generator, checked_input_set);
    });
    DeviceReference ref(tc.M, tc.N, tc.K); // before solve() can touch anything
    clock.measure(&PhaseTimes::reference,
                  [&] { compute_reference(cublas(), p.pristine_A.data(), p.pristine_B.data(), ref); });
    r.reference_method = "cublas-dgemm";
    clock.measure(&PhaseTimes::solve, [&] { invoke_solve(p, false); });
    clock.measure(&PhaseTimes::verify, [&] {
        r.check = check_output_on_device(p.C.data(), ref.value.data(), ref.magnitude.data(), tc.M, tc.N, tc.K,
                                         request.policy.precision);
        const Judgement j = judge_output(*r.check, p.integrity());
        r.verdict = j.verdict;
        r.detail = j.detail;
    });
    ++r.verification.calls;
    ++r.verification.full_checks;
}

// Warm-up and timed calls, each on inputs from a seed drawn after the previous call
// returned, and each output verified before the next call: nothing a solution keeps
// from one call says anything about the next, and every printed time comes from calls
// whose outputs were right.
void CaseRunner::run_timed_calls(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock) {
    const TestCase &tc = request.testcase;
    SplitMix64 choices(request.secret);
    Sampler sampler(request.policy.sampling);
    r.verification.projection_vectors = projection_vectors;
    r.verification.sampled_elements = sampled_elements;
    for (int call = 1; sampler.wants_more(); ++call) {
        GeneratorSpec fresh = tc.generator;
        fresh.seed = choices.next();
        clock.measure(&PhaseTimes::generate, [&] { p.generate(fresh, timed_input_set); });
        CallSample sample = clock.measure(&PhaseTimes::timing, [&] { return invoke_solve(p, true); });
        sample.throttled = gpu_reports_slowdown();
        const Judgement j = clock.measure(&PhaseTimes::verify, [&] {
            TimedCallCheck check = p.projection.check(p.pristine_A.data(), p.pristine_B.data(), p.C.data(),
                                                      choices.next(), request.policy.precision);
            check.integrity = p.integrity();
            return judge_timed_call(check, request.policy.precision, tc.N, static_cast<long long>(tc.M) * tc.K);
        });
        ++r.verification.calls;
        ++r.verification.projected_checks;
        if (j.verdict != Verdict::AC) {
            r.verdict = j.verdict;
            r.detail = "output of timed call " + std::to_string(call) +
                       " (fresh inputs, as every call gets): " + j.detail;
            r.failed_in_timed_calls = true;
            return;
        }
        sampler.record(sample);
    }
    r.timing = sampler.result();
    r.timing->sm_clock_mhz = current_sm_clock_mhz();
}

TimedRun CaseRunner::time_cublas(Problem &p, const SamplingRule &rule) {
    cublas_check(cublasSetMathMode(cublas(), CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    Sampler sampler(rule);
    while (sampler.wants_more()) {
        timer_.flush_l2();
        CallSample sample =
            timer_.time([&] { row_major_sgemm(cublas(), p.A.data(), p.B.data(), p.C.data(), p.M, p.N, p.K); });
        sample.throttled = gpu_reports_slowdown();
        sampler.record(sample);
    }
    TimedRun run = sampler.result();
    run.sm_clock_mhz = current_sm_clock_mhz();
    return run;
}

CaseResult CaseRunner::run(const CaseRequest &request) {
    const TestCase &tc = request.testcase;
    CaseResult r = result_for(tc, Verdict::JE, "");
    channel_.send({{"event", event::judge}});
    PhaseClock clock(r.phases);
    Problem problem(tc.M, tc.N, tc.K);
    run_checked_call(problem, request, r, clock);
    if (r.verdict != Verdict::AC || !request.policy.timed) return r;
    run_timed_calls(problem, request, r, clock);
    if (r.verdict != Verdict::AC || !request.policy.baseline) return r;
    r.baseline = clock.measure(&PhaseTimes::baseline, [&] { return time_cublas(problem, request.policy.sampling); });
    return r;
}

} // namespace gemm
