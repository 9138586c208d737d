#include "worker/case_runner.hpp"
#include "worker/device_info.hpp"
#include "worker/guarded_buffer.hpp"
#include "worker/reference_cublas.hpp"

#include <cmath>
#include <cstring>

namespace gemm {

namespace {

// Timed calls run on A·2^e with e ∈ {−1, 0, 1} changing before every call: products
// and sums scale exactly, so the reference is 2^e·R, and no two consecutive calls see
// the same inputs — an answer replayed from an earlier call is wrong.
int next_exponent(SplitMix64 &choices, int previous) {
    return (previous + 2 + static_cast<int>(choices.next() % 2)) % 3 - 1;
}

// One timed output in four, chosen where the solution cannot see it, is checked besides the last.
bool check_this_call(SplitMix64 &choices) { return choices.next() % 4 == 0; }

} // namespace

struct CaseRunner::Problem {
    Problem(int M, int N, int K)
        : M(M), N(N), K(K), A(std::size_t(M) * N), B(std::size_t(N) * K), C(std::size_t(M) * K) {}
    void load(const CaseInputs &inputs) {
        A.upload(inputs.A);
        B.upload(inputs.B);
        a_exponent = 0;
        for (GuardedBuffer *buffer : {&A, &B, &C}) buffer->fill_guards();
        poison_output();
    }
    void poison_output() { C.fill(0xFF); }
    void scale_A_to(cublasHandle_t handle, int exponent) {
        const float factor = std::ldexp(1.0f, exponent - a_exponent);
        cublas_check(cublasSscal_64(handle, static_cast<int64_t>(A.size()), &factor, A.data(), 1), "cublasSscal");
        a_exponent = exponent;
    }
    int M, N, K;
    GuardedBuffer A, B, C;
    int a_exponent = 0; // A on the device is the input times 2^a_exponent
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

Reference CaseRunner::reference_for(const CaseInputs &inputs, int M, int N, int K) {
    if (cpu_reference_is_cheap(M, N, K)) return reference_on_cpu(inputs.A, inputs.B, M, N, K);
    // Pedantic: no reduced-precision or emulated shortcut may touch the reference.
    cublas_check(cublasSetMathMode(cublas(), CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    return reference_on_gpu(cublas(), inputs.A, inputs.B, M, N, K);
}

// A solution that resets the device or leaves another one current would make the
// judge's own next CUDA call fail: name it as the solution's doing.
void CaseRunner::check_device_untouched(const Problem &p) const {
    int device = -1;
    if (cudaGetDevice(&device) != cudaSuccess || device != 0)
        throw SolveFailure("solve() left device " + std::to_string(device) +
                           " current; it must leave device 0 current");
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
        sample = timer_.time([&] { solve_(p.A.data(), p.B.data(), p.C.data(), p.M, p.N, p.K); },
                             [&] { check_device_untouched(p); });
    } catch (const CudaFailure &e) {
        check_device_untouched(p);
        throw SolveFailure(std::string("CUDA error in solve(): ") + cudaGetErrorString(e.code));
    }
    check_device_untouched(p);
    channel_.send({{"event", event::judge}});
    return sample;
}

Judgement CaseRunner::inspect(Problem &p, const CaseInputs &inputs, const Reference &ref, OutputCheck &figures) const {
    const auto C = p.C.download();
    figures = compare_output(C.data(), ref, precision_, std::ldexp(1.0, p.a_exponent));
    auto unchanged = [](const GuardedBuffer &buffer, const std::vector<float> &original, int exponent) {
        if (buffer.inspect_guards().any()) return false;
        const auto now = buffer.download();
        for (std::size_t i = 0; i < now.size(); ++i) {
            const float expected = std::ldexp(original[i], exponent);
            if (std::memcmp(&now[i], &expected, sizeof expected) != 0) return false;
        }
        return true;
    };
    IntegrityCheck integrity;
    integrity.A_modified = !unchanged(p.A, inputs.A, p.a_exponent);
    integrity.B_modified = !unchanged(p.B, inputs.B, 0);
    const GuardDamage damage = p.C.inspect_guards();
    integrity.floats_written_before_C = damage.floats_before;
    integrity.floats_written_after_C = damage.floats_after;
    return judge_output(figures, integrity);
}

std::optional<Judgement> CaseRunner::time_solution(Problem &p, const CaseInputs &inputs, const Reference &ref,
                                                   SplitMix64 &choices, TimedRun &run) {
    auto failed_check = [&]() -> std::optional<Judgement> {
        OutputCheck figures;
        Judgement j = inspect(p, inputs, ref, figures);
        if (j.verdict == Verdict::AC) return std::nullopt;
        j.detail = "output of a timed call (other inputs than the checked call's): " + j.detail;
        return j;
    };
    p.scale_A_to(cublas(), next_exponent(choices, p.a_exponent));
    invoke_solve(p, true); // warm-up: caches, clocks, lazily loaded modules
    if (auto bad = failed_check()) return bad;
    std::vector<double> event_ms, host_ms;
    double total_ms = 0;
    while (static_cast<int>(event_ms.size()) < options_.max_samples &&
           (static_cast<int>(event_ms.size()) < options_.min_samples || total_ms < options_.budget_s * 1e3)) {
        p.scale_A_to(cublas(), next_exponent(choices, p.a_exponent));
        const CallSample s = invoke_solve(p, true);
        run.calls_with_unsynchronized_work += s.unsynchronized_work();
        event_ms.push_back(s.event_ms);
        host_ms.push_back(s.host_ms);
        total_ms += s.time_ms();
        if (check_this_call(choices))
            if (auto bad = failed_check()) return bad;
    }
    // Work left running shows in most calls; one late host-clock reading is the machine's
    // noise, not the solution's, and must not replace the events' times.
    run.host_clock_used = 2 * run.calls_with_unsynchronized_work > static_cast<int>(event_ms.size());
    run.stats = summarize(run.host_clock_used ? host_ms : event_ms);
    run.sm_clock_mhz = current_sm_clock_mhz();
    return failed_check(); // the last output, always
}

TimedRun CaseRunner::time_cublas(Problem &p) {
    cublas_check(cublasSetMathMode(cublas(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    auto call = [&] { row_major_sgemm(cublas(), p.A.data(), p.B.data(), p.C.data(), p.M, p.N, p.K); };
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

CaseResult CaseRunner::run(const CaseRequest &request) {
    const TestCase &tc = request.testcase;
    precision_ = request.mode.precision;
    CaseResult r;
    r.name = tc.name;
    r.M = tc.M;
    r.N = tc.N;
    r.K = tc.K;
    channel_.send({{"event", event::judge}});
    Problem problem(tc.M, tc.N, tc.K);
    {
        const CaseInputs inputs = case_inputs(tc, checked_input_set);
        const Reference ref = reference_for(inputs, tc.M, tc.N, tc.K); // before solve() can touch anything
        r.reference_method = ref.method;
        problem.load(inputs);
        invoke_solve(problem, false);
        OutputCheck figures;
        const Judgement j = inspect(problem, inputs, ref, figures);
        r.check = figures;
        r.verdict = j.verdict;
        r.detail = j.detail;
        if (j.verdict != Verdict::AC || !request.mode.timed) return r;
    }
    const CaseInputs inputs = case_inputs(tc, timed_input_set);
    const Reference ref = reference_for(inputs, tc.M, tc.N, tc.K);
    problem.load(inputs);
    SplitMix64 choices(request.secret);
    TimedRun timing;
    if (auto bad = time_solution(problem, inputs, ref, choices, timing)) {
        r.verdict = bad->verdict;
        r.detail = bad->detail;
        r.failed_in_timed_calls = true;
        return r;
    }
    r.timing = timing;
    if (wants_baseline(tc)) r.baseline = time_cublas(problem);
    return r;
}

} // namespace gemm
