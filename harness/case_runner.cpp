#include "case_runner.hpp"
#include "device_info.hpp"
#include "guarded_buffer.hpp"
#include "protocol.hpp"
#include "reference_cublas.hpp"

#include <cstring>

namespace gemm {

struct CaseRunner::Problem {
    Problem(int M, int N, int K)
        : M(M), N(N), K(K), A(std::size_t(M) * N), B(std::size_t(N) * K), C(std::size_t(M) * K) {}
    void load(const Inputs &inputs) {
        A.upload(inputs.A);
        B.upload(inputs.B);
        for (GuardedBuffer *buffer : {&A, &B, &C}) buffer->fill_guards();
        poison_output();
    }
    void poison_output() { C.fill(0xFF); }
    int M, N, K;
    GuardedBuffer A, B, C;
};

CaseRunner::CaseRunner(SolveFunction solve, WorkerChannel &channel, const DeviceInfo &device, TimingOptions options)
    : solve_(solve), channel_(channel), options_(options), timer_(static_cast<std::size_t>(device.l2_bytes)) {}

CaseRunner::~CaseRunner() {
    if (cublas_) cublasDestroy(cublas_);
}

cublasHandle_t CaseRunner::cublas() {
    if (!cublas_) cublas_check(cublasCreate(&cublas_), "cublasCreate");
    return cublas_;
}

CaseRunner::Inputs CaseRunner::make_inputs(const TestCase &tc, int input_set) const {
    if (tc.has_explicit_data && input_set == checked_input_set) return {tc.A, tc.B};
    return {generate_matrix(tc.generator, input_set, MatrixId::A, tc.M, tc.N),
            generate_matrix(tc.generator, input_set, MatrixId::B, tc.N, tc.K)};
}

Reference CaseRunner::reference_for(const Inputs &inputs, int M, int N, int K) {
    if (cpu_reference_is_cheap(M, N, K)) return reference_on_cpu(inputs.A, inputs.B, M, N, K);
    // Pedantic: no reduced-precision or emulated shortcut may touch the reference.
    cublas_check(cublasSetMathMode(cublas(), CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    return reference_on_gpu(cublas(), inputs.A, inputs.B, M, N, K);
}

CallSample CaseRunner::invoke_solve(Problem &p, bool flush) {
    p.poison_output();
    if (flush) timer_.flush_l2();
    channel_.send({{"event", event::call}});
    CallSample sample;
    try {
        sample = timer_.time([&] { solve_(p.A.data(), p.B.data(), p.C.data(), p.M, p.N, p.K); });
    } catch (const CudaFailure &e) {
        throw SolveFailure(std::string("CUDA error in solve(): ") + cudaGetErrorString(e.code));
    }
    channel_.send({{"event", event::judge}});
    return sample;
}

Judgement CaseRunner::inspect(Problem &p, const Inputs &inputs, const Reference &ref, OutputCheck &figures) const {
    const auto C = p.C.download();
    figures = compare_output(C.data(), ref);
    auto unchanged = [](const GuardedBuffer &buffer, const std::vector<float> &original) {
        const auto now = buffer.download();
        return !buffer.inspect_guards().any() && std::memcmp(now.data(), original.data(), now.size() * sizeof(float)) == 0;
    };
    IntegrityCheck integrity;
    integrity.A_modified = !unchanged(p.A, inputs.A);
    integrity.B_modified = !unchanged(p.B, inputs.B);
    const GuardDamage damage = p.C.inspect_guards();
    integrity.floats_written_before_C = damage.floats_before;
    integrity.floats_written_after_C = damage.floats_after;
    return judge_output(figures, integrity);
}

TimedRun CaseRunner::time_solution(Problem &p) {
    invoke_solve(p, true); // warm-up: caches, clocks, lazily loaded modules
    std::vector<double> samples;
    double total_ms = 0;
    TimedRun run;
    while (static_cast<int>(samples.size()) < options_.max_samples &&
           (static_cast<int>(samples.size()) < options_.min_samples || total_ms < options_.budget_s * 1e3)) {
        const CallSample s = invoke_solve(p, true);
        run.calls_with_unsynchronized_work += s.unsynchronized_work();
        samples.push_back(s.time_ms());
        total_ms += s.time_ms();
    }
    run.host_clock_used = run.calls_with_unsynchronized_work > 0;
    run.stats = summarize(samples);
    run.sm_clock_mhz = current_sm_clock_mhz();
    return run;
}

TimedRun CaseRunner::time_cublas(Problem &p, const TestCase &tc) {
    cublas_check(cublasSetMathMode(cublas(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    auto call = [&] { row_major_sgemm(cublas(), p.A.data(), p.B.data(), p.C.data(), tc.M, tc.N, tc.K); };
    timer_.time(call);
    std::vector<double> samples;
    double total_ms = 0;
    while (static_cast<int>(samples.size()) < options_.max_samples &&
           (static_cast<int>(samples.size()) < options_.min_samples || total_ms < options_.budget_s * 1e3)) {
        timer_.flush_l2();
        const CallSample s = timer_.time(call);
        samples.push_back(s.event_ms);
        total_ms += s.event_ms;
    }
    TimedRun run;
    run.stats = summarize(samples);
    run.sm_clock_mhz = current_sm_clock_mhz();
    return run;
}

bool CaseRunner::wants_baseline(const TestCase &tc) const {
    return options_.baseline == BaselineMode::All || (options_.baseline == BaselineMode::Perf && tc.category == "perf");
}

CaseResult CaseRunner::run(const TestCase &tc) {
    CaseResult r;
    r.name = tc.name;
    r.M = tc.M;
    r.N = tc.N;
    r.K = tc.K;
    channel_.send({{"event", event::judge}});
    Problem problem(tc.M, tc.N, tc.K);
    {
        const Inputs inputs = make_inputs(tc, checked_input_set);
        const Reference ref = reference_for(inputs, tc.M, tc.N, tc.K); // before solve() can touch anything
        r.reference_method = ref.method;
        problem.load(inputs);
        invoke_solve(problem, false);
        OutputCheck figures;
        const Judgement j = inspect(problem, inputs, ref, figures);
        r.check = figures;
        if (j.verdict != Verdict::AC) {
            r.verdict = j.verdict;
            r.detail = j.detail;
            return r;
        }
    }
    // Timed calls get other inputs than the checked call, and their last output is
    // checked too: an answer remembered from an earlier call fails here.
    const Inputs inputs = make_inputs(tc, timed_input_set);
    const Reference ref = reference_for(inputs, tc.M, tc.N, tc.K);
    problem.load(inputs);
    r.timing = time_solution(problem);
    OutputCheck figures;
    const Judgement j = inspect(problem, inputs, ref, figures);
    if (j.verdict != Verdict::AC) {
        r.verdict = j.verdict;
        r.detail = "output of the timed calls (inputs other than the checked call's): " + j.detail;
        return r;
    }
    if (wants_baseline(tc)) r.baseline = time_cublas(problem, tc);
    r.verdict = Verdict::AC;
    return r;
}

} // namespace gemm
