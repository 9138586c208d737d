#include "referee/case_referee.hpp"
#include "cuda_driver/cublas_api.hpp"
#include "measurement/gpu_sharing.hpp"
#include "measurement/offset_rule.hpp"
#include "measurement/sampling.hpp"
#include "measurement/stats.hpp"
#include "referee/canonical_operands.hpp"
#include "referee/device_check.hpp"
#include "referee/device_info.hpp"
#include "referee/device_inputs.hpp"
#include "referee/guarded_buffer.hpp"
#include "referee/integrity_check.hpp"
#include "referee/reference_cublas.hpp"
#include "verification/memory_blame.hpp"
#include "verification/timed_check.hpp"

#include <algorithm>
#include <chrono>
#include <unistd.h>

namespace gemm {

// The device memory of one shape. In the shared arena, between guard bands: the A, B
// and C the runner sees, stored as the problem stores them (common/product_layout.hpp), and an
// epilogue's bias and factor. The referee's alone: the inputs as it made them (pristine), the
// operands the checks read (canonical: the pristine ones where the layout is plain, else their
// transposes or the diagonal's square), the snapshot of C that every check reads, and the
// projected check's scratch. An FP16 problem's operands are stored as halves (pristine and in
// the arena) and read by the checks widened to floats (wide), exactly; an int8 problem's as
// bytes, read by the checks as floats less their zero points; a C that is read holds C₀, made
// like the inputs, when the call begins.
struct CaseReferee::Problem {
    // The arena's pieces in order: A, B, C, then the bias and the factor where the layout has them.
    static std::vector<std::size_t> pieces(int M, int N, int K, const ProductLayout &l) {
        std::vector<std::size_t> sizes{l.words(l.a_elements(M, N)), l.words(l.b_elements(N, K)),
                                       l.words(l.c_elements(M, K))};
        sizes.push_back(l.bias_elements(K));
        sizes.push_back(l.factor_elements(M, K));
        return sizes;
    }
    static std::size_t arena_bytes(int M, int N, int K, const ProductLayout &l) {
        std::size_t bytes = 0;
        for (std::size_t elements : pieces(M, N, K, l)) bytes += elements ? GuardedBuffer::footprint(elements) : 0;
        return bytes;
    }
    // The pieces one after another from the arena's start, each between its guards.
    struct ArenaCursor {
        unsigned char *at;
        GuardedBuffer next(std::size_t elements) {
            GuardedBuffer buffer(reinterpret_cast<float *>(at), elements);
            at += elements ? GuardedBuffer::footprint(elements) : 0;
            return buffer;
        }
    };

    Problem(int M, int N, int K, const ProductLayout &layout, unsigned char *arena)
        : Problem(M, N, K, layout, arena, ArenaCursor{arena}, pieces(M, N, K, layout)) {}
    Problem(int M, int N, int K, const ProductLayout &layout, unsigned char *arena, ArenaCursor cursor,
            const std::vector<std::size_t> &sizes)
        : M(M), N(N), K(K), layout(layout), arena(arena), pristine_A(sizes[0]), pristine_B(sizes[1]),
          snapshot_C(sizes[2]), pristine_bias(sizes[3]), pristine_factor(sizes[4]), A(cursor.next(sizes[0])),
          B(cursor.next(sizes[1])), C(cursor.next(sizes[2])), bias(cursor.next(sizes[3])),
          factor(cursor.next(sizes[4])), projection(M, N, K, layout.batch) {
        if (layout.a_transposed || layout.a_diagonal) canonical_A.emplace(std::size_t(layout.batch) * M * N);
        if (layout.b_transposed) canonical_B.emplace(std::size_t(layout.batch) * N * K);
        if (half() || int8()) {
            wide_A.emplace(layout.a_elements(M, N));
            wide_B.emplace(layout.b_elements(N, K));
            wide_C.emplace(layout.c_elements(M, K));
        }
        if (layout.c_read) {
            pristine_C0.emplace(sizes[2]);
            if (half()) wide_C0.emplace(layout.c_elements(M, K));
        }
    }
    bool half() const { return layout.element_bytes == 2; } // FP16 or BF16 (layout.bfloat16)
    bool int8() const { return layout.element_bytes == 1; }
    long long calls_prepared = 0;
    // Each timed call checked against the full reference, not projected: an epilogue is not
    // linear in the inputs, an FP16 output's rounding and β·C₀ are not in the projection's
    // bound, and an int8 output's requantization is exact.
    bool checked_in_full() const { return !epilogue.empty() || half() || int8() || layout.c_read; }
    // A generated operand where the checks read it and, stored as FP16 or int8, packed into `stored`.
    void make(const GeneratorSpec &spec, int input_set, MatrixId id, long long rows, long long cols, float *stored,
              std::optional<DeviceArray<float>> &wide) {
        float *values = wide ? wide->data() : stored;
        generate_on_device(spec, input_set, id, static_cast<int>(rows), static_cast<int>(cols), values);
        pack(id, values, static_cast<std::size_t>(rows) * cols, stored);
    }
    // Values the checks read → the stored operand, where it is not FP32 (the values are then
    // left as the checks read them: FP16-rounded, or less the int8 zero point).
    void pack(MatrixId id, float *values, std::size_t n, float *stored) {
        if (half()) round_to_half_on_device(values, n, stored, layout.bfloat16);
        if (int8()) {
            const Requantization q = requantization_of(scalars);
            round_to_int8_on_device(values, n, id == MatrixId::A ? q.zero_point_A : q.zero_point_B, stored);
        }
    }

    void generate(const GeneratorSpec &spec, int input_set) {
        // A batch's stored operands are generated as one matrix of its products' rows stacked.
        make(spec, input_set, MatrixId::A, layout.batch * layout.a_rows(M, N), layout.a_cols(M, N), pristine_A.data(),
             wide_A);
        make(spec, input_set, MatrixId::B, layout.batch * layout.b_rows(N, K), layout.b_cols(N, K), pristine_B.data(),
             wide_B);
        if (layout.c_read) make(spec, input_set, MatrixId::C0, layout.batch * M, K, pristine_C0->data(), wide_C0);
        if (layout.bias) generate_on_device(spec, input_set, MatrixId::Bias, 1, K, pristine_bias.data());
        if (layout.factor) generate_on_device(spec, input_set, MatrixId::Factor, M, K, pristine_factor.data());
        make_canonical();
    }
    void upload(const std::vector<float> &a, const std::vector<float> &b) {
        float *values_A = wide_A ? wide_A->data() : pristine_A.data(),
              *values_B = wide_B ? wide_B->data() : pristine_B.data();
        cuda_check(cudaMemcpy(values_A, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
        cuda_check(cudaMemcpy(values_B, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
        pack(MatrixId::A, values_A, a.size(), pristine_A.data());
        pack(MatrixId::B, values_B, b.size(), pristine_B.data());
        make_canonical();
    }
    void make_canonical() {
        if (layout.a_diagonal)
            diagonal_on_device(pristine_A.data(), layout.batch, N, canonical_A->data());
        else if (layout.a_transposed)
            transpose_on_device(pristine_A.data(), layout.batch, N, M, canonical_A->data());
        if (layout.b_transposed) transpose_on_device(pristine_B.data(), layout.batch, K, N, canonical_B->data());
        if (passes_nonzeros)
            scalars["nnz"] = static_cast<double>(count_nonzero_on_device(pristine_A.data(), pristine_A.size()));
    }
    // A (batch·M×N) and B (batch·N×K) as the checks read them.
    const float *A_checked() const {
        return canonical_A ? canonical_A->data() : wide_A ? wide_A->data() : pristine_A.data();
    }
    const float *B_checked() const {
        return canonical_B ? canonical_B->data() : wide_B ? wide_B->data() : pristine_B.data();
    }
    const float *C0_checked() const {
        return !layout.c_read ? nullptr : wide_C0 ? wide_C0->data() : pristine_C0->data();
    }
    // The snapshot of C as the checks read it: widened from FP16 or int8 first.
    const float *C_checked() {
        if (half()) widen_half_on_device(snapshot_C.data(), wide_C->size(), wide_C->data(), layout.bfloat16);
        if (int8()) widen_int8_on_device(snapshot_C.data(), wide_C->size(), wide_C->data());
        return wide_C ? wide_C->data() : snapshot_C.data();
    }
    const float *bias_checked() const { return layout.bias ? pristine_bias.data() : nullptr; }
    const float *factor_checked() const { return layout.factor ? pristine_factor.data() : nullptr; }
    long long rows_of_C() const { return layout.batch * M; }
    // Before the start stamp: C poisoned (unwritten elements show), guards laid. A sum's one
    // number starts at zero, as the site hands it out (solutions add their parts to it).
    // Every int8 byte is a value a right answer may hold, so its poison alternates, −1 then 0:
    // an element left unwritten shows in one call or the next, even where every answer is
    // the same (saturated, or z_C alone).
    void prepare_call() {
        const bool int8_zero_poison = int8() && calls_prepared++ % 2 == 1;
        if (!layout.c_read) C.fill(layout.scalar_output || int8_zero_poison ? 0x00 : 0xFF);
        for (GuardedBuffer *buffer : {&A, &B, &C}) buffer->fill_guards();
        if (layout.bias) bias.fill_guards();
        if (layout.factor) factor.fill_guards();
    }
    // After the start stamp: the call's inputs come into existence only now.
    void hand_out_inputs() {
        A.copy_from(pristine_A.data());
        B.copy_from(pristine_B.data());
        if (layout.bias) bias.copy_from(pristine_bias.data());
        if (layout.factor) factor.copy_from(pristine_factor.data());
        if (layout.c_read) C.copy_from(pristine_C0->data());
    }
    // Before the stop stamp: what the checks read is what C held by then.
    void snapshot_output() {
        cuda_check(cudaMemcpyAsync(snapshot_C.data(), C.data(), snapshot_C.size() * sizeof(float),
                                   cudaMemcpyDeviceToDevice, nullptr),
                   "snapshot of C");
    }
    std::size_t offset_of(const GuardedBuffer &buffer) const {
        return static_cast<std::size_t>(reinterpret_cast<unsigned char *>(buffer.data()) - arena);
    }
    CallOrder order(RunnerWork work) const {
        CallOrder o;
        o.M = M;
        o.N = N;
        o.K = K;
        o.layout = layout;
        o.dims = dims.empty() ? std::vector<long long>{M, N, K} : dims;
        o.scalars = scalars;
        o.a_offset = offset_of(A);
        o.b_offset = offset_of(B);
        o.c_offset = offset_of(C);
        if (layout.bias) o.bias_offset = offset_of(bias);
        if (layout.factor) o.factor_offset = offset_of(factor);
        o.epilogue = epilogue;
        o.work = work;
        return o;
    }
    // A and B (and an epilogue's operands) against the referee's copies, and every guard band.
    IntegrityCheck integrity() {
        IntegrityCheck result = integrity_check.check(A, pristine_A.data(), B, pristine_B.data(), C);
        if (layout.bias) result.bias_modified = integrity_check.modified(bias, pristine_bias.data());
        if (layout.factor) result.factor_modified = integrity_check.modified(factor, pristine_factor.data());
        return result;
    }

    int M, N, K;
    ProductLayout layout;
    std::vector<long long> dims;           // the case's own, for the entry point's arguments; set per case
    std::map<std::string, double> scalars; // the case's scalar arguments by role; nnz made per input set
    bool passes_nonzeros = false;          // set per case
    Epilogue epilogue;                     // the case's; set per case
    unsigned char *arena;
    DeviceArray<float> pristine_A, pristine_B, snapshot_C, pristine_bias, pristine_factor;
    std::optional<DeviceArray<float>> canonical_A, canonical_B;
    std::optional<DeviceArray<float>> wide_A, wide_B, wide_C, pristine_C0, wide_C0;
    GuardedBuffer A, B, C, bias, factor;
    ProjectionWorkspace projection;
    IntegrityWorkspace integrity_check;
};

// Wall time per phase, so the judge's own cost is visible next to the kernel's.
class CaseReferee::PhaseClock {
  public:
    explicit PhaseClock(PhaseTimes &times) : times_(times) {}
    template <typename Work> auto measure(double PhaseTimes::*phase, Work &&work) {
        struct Add {
            PhaseTimes &times;
            double PhaseTimes::*phase;
            std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
            ~Add() { times.*phase += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
        } add{times_, phase};
        return work();
    }

  private:
    PhaseTimes &times_;
};

CaseReferee::CaseReferee(RefereeChannel &judge, RunnerLink &baseline, const DeviceInfo &device)
    : judge_(judge), clock_(static_cast<std::size_t>(device.l2_bytes)) {
    baseline_.link = &baseline;
    solution_.is_solution = true;
}

CaseReferee::~CaseReferee() {
    problem_.reset();
    if (cublas_) cublas_api().destroy(cublas_);
}

void CaseReferee::detach_solution() {
    solution_.link = nullptr;
    solution_.mapped_generation = -1;
    problem_.reset();
    arena_.release();
    ++arena_generation_;
}

cublasHandle_t CaseReferee::cublas() {
    if (!cublas_) cublas_check(cublas_api().create(&cublas_), "cublasCreate");
    return cublas_;
}

CaseReferee::Problem &CaseReferee::problem_for(int M, int N, int K, const ProductLayout &layout) {
    if (problem_ && problem_->M == M && problem_->N == N && problem_->K == K && problem_->layout == layout)
        return *problem_;
    problem_.reset();
    if (arena_.reserve(Problem::arena_bytes(M, N, K, layout))) ++arena_generation_;
    problem_ = std::make_unique<Problem>(M, N, K, layout, arena_.data());
    return *problem_;
}

ShapeKey CaseReferee::key_of(const Problem &p) {
    const bool extras =
        p.layout.bias || p.layout.factor || p.layout.scalar_output || p.layout.c_read || p.layout.element_bytes != 4;
    return {p.M, p.N, p.K, p.layout.batch, extras ? 1 : 0};
}

// A runner maps the arena once per allocation; the descriptor goes to it alone.
void CaseReferee::map_arena(Runner &runner) {
    if (runner.mapped_generation == arena_generation_) return;
    const int fd = arena_.export_descriptor();
    const RunnerReply reply = runner.link->map(fd, arena_.size());
    close(fd);
    if (reply.kind != RunnerReply::Kind::Done) {
        if (!runner.is_solution)
            throw CaseStopped(RefereeWork::RefereeFailed,
                              "the baseline runner could not map the GPU memory: " + reply.why);
        throw CaseStopped(RefereeWork::SolutionFailed,
                          reply.kind == RunnerReply::Kind::Violation
                              ? "the solution's process broke the runner protocol: " + reply.why
                              : reply.why,
                          reply.kind == RunnerReply::Kind::Lost, 0);
    }
    runner.mapped_generation = arena_generation_;
}

// One call through a runner, timed by the referee's stamps: from before the inputs
// exist in the runner's memory to after the snapshot of C. The judge hears of a
// solution's call outside the stamps: its bookkeeping is no part of the call. Between
// the stamps the host does only what it must (the inputs, "go" and "done" on the
// doorbell, the stamps): the order travels before them; the runner's message is read,
// and the runner stopped, while the GPU changes back to this process for the stamp.
CallSample CaseReferee::call(Runner &runner, Problem &p, RunnerWork work, int call_index, double calibration_ms,
                             CalibrationKind kind) {
    map_arena(runner);
    p.prepare_call();
    clock_.flush_l2(arena_.data(), arena_.size());
    // The judge's own calibration kernel in the solution's process is no call of solve(), but
    // that process runs, so the case's time limit applies to it too.
    if (runner.is_solution)
        judge_.send({{"event", work == RunnerWork::Calibration ? event::calibration : event::call}});
    CallOrder order = p.order(work);
    order.calibration_ns = static_cast<unsigned long long>(calibration_ms * 1e6);
    order.calibration_kind = kind;
    runner.link->arm(order);
    clock_.start();
    p.hand_out_inputs();
    clock_.inputs_handed_out();
    cuda_check(cudaStreamSynchronize(nullptr), "handing out the inputs");
    runner.link->go();
    clock_.runner_answered();
    const RunnerReply reply = runner.link->answer();
    runner.link->rest();
    if (reply.kind != RunnerReply::Kind::Done) {
        if (!runner.is_solution)
            throw CaseStopped(RefereeWork::RefereeFailed, "the baseline runner failed: " + reply.why);
        judge_.send({{"event", event::judge}});
        throw CaseStopped(RefereeWork::SolutionFailed,
                          reply.kind == RunnerReply::Kind::Violation
                              ? "the solution's process broke the runner protocol: " + reply.why
                              : reply.why,
                          reply.kind == RunnerReply::Kind::Lost, call_index);
    }
    p.snapshot_output();
    clock_.stop();
    CallSample sample;
    sample.phases = clock_.elapsed();
    sample.ms = sample.phases.total_ms;
    sample.own_events_ms = reply.own_events_ms;
    if (runner.is_solution) judge_.send({{"event", event::judge}});
    return sample;
}

EmptyCall CaseReferee::measure_empty_calls(Problem &p, int calls, double calibration_ms, CalibrationKind kind) {
    const RunnerWork work = calibration_ms > 0 ? RunnerWork::Calibration : RunnerWork::Nothing;
    std::vector<CallSample> samples;
    // Two warm-ups for the empty call (page tables, lazy module loads); a calibration call follows
    // empty calls of the same shape, so its first call is already warm.
    for (int i = work == RunnerWork::Calibration ? 0 : -2; i < calls; ++i) {
        const CallSample s = call(baseline_, p, work, 0, calibration_ms, kind);
        if (i >= 0) samples.push_back(s);
    }
    // The path's cost is what the empty call took beyond its own work on the GPU (the
    // memset of C, or the calibration call's kernel, timed by the baseline runner's events around
    // it): a solution's kernels are its work, and an in-process judge would have counted
    // them in full.
    std::vector<double> ms;
    for (const CallSample &s : samples) ms.push_back(s.ms - std::min(s.own_events_ms.value_or(0.0), s.ms));
    const TimingSummary summary = summarize(ms);
    EmptyCall e;
    e.median_ms = summary.median_ms;
    e.spread_ms = summary.q3_ms - summary.q1_ms;
    e.samples = summary.samples;
    e.median_phases = median_phases(samples);
    e.own_events_ms = median_own_events(samples);
    return e;
}

void CaseReferee::calibrate(const std::vector<ShapeKey> &shapes) {
    if (shapes.empty()) return;
    clock_.warm_up(30); // idle clocks would make an empty call look slower than it is later
    GeneratorSpec spec;
    for (const ShapeKey &shape : shapes) {
        if (calibrated_.count(shape)) continue;
        ProductLayout layout;
        layout.batch = shape[3];
        Problem &p =
            problem_for(static_cast<int>(shape[0]), static_cast<int>(shape[1]), static_cast<int>(shape[2]), layout);
        p.generate(spec, timed_input_set);
        calibrated_[shape] = measure_empty_calls(p, 11); // as many as after the calls: a median for the busy-GPU check
    }
}

void CaseReferee::run_checked_call(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock) {
    const TestCase &tc = request.testcase;
    clock.measure(&PhaseTimes::generate, [&] {
        if (tc.has_explicit_data)
            p.upload(tc.A, tc.B);
        else
            p.generate(tc.generator, checked_input_set);
    });
    DeviceReference ref(tc.M, tc.N, tc.K, p.layout.batch);
    clock.measure(&PhaseTimes::reference, [&] { compute_reference(cublas(), p.A_checked(), p.B_checked(), ref); });
    r.reference_method = "cublas-dgemm";
    clock.measure(&PhaseTimes::solve, [&] { call(solution_, p, RunnerWork::Solve, 1); });
    clock.measure(&PhaseTimes::verify, [&] {
        r.check = check_against(p, tc, ref, request.policy.precision);
        r.facts.checked_integrity = p.integrity();
    });
    ++r.verification.calls;
    ++r.verification.full_checks;
}

// The snapshot of C against the full reference: the product's, or its epilogue's (which the
// check carries `ref` through in place), with the site's allclose beside it.
OutputCheck CaseReferee::check_against(Problem &p, const TestCase &tc, DeviceReference &ref, Precision precision) {
    const float *C = p.C_checked();
    const int rows = static_cast<int>(p.rows_of_C());
    if (p.int8())
        return check_requantized_output_on_device(C, ref.value.data(), ref.magnitude.data(), p.A_checked(),
                                                  p.B_checked(), requantization_of(p.scalars), rows, tc.N, tc.K,
                                                  tc.site_tolerance);
    if (p.half() || p.layout.c_read) {
        const auto scalar = [&](const char *role, double otherwise) {
            const auto found = p.scalars.find(role);
            return found == p.scalars.end() ? otherwise : found->second;
        };
        ScaledProduct scaling;
        scaling.alpha = scalar("alpha", 1);
        scaling.beta = p.layout.c_read ? scalar("beta", 0) : 0;
        scaling.output = !p.half() ? Dtype::FP32 : p.layout.bfloat16 ? Dtype::BF16 : Dtype::FP16;
        return check_scaled_output_on_device(C, ref.value.data(), ref.magnitude.data(), p.C0_checked(), scaling, rows,
                                             tc.N, tc.K, precision, tc.site_tolerance);
    }
    if (!p.epilogue.empty())
        return check_epilogue_output_on_device(C, ref.value.data(), ref.magnitude.data(), p.bias_checked(),
                                               p.factor_checked(), p.epilogue, rows, tc.N, tc.K, precision,
                                               tc.site_tolerance);
    OutputCheck check = check_output_on_device(C, ref.value.data(), ref.magnitude.data(), rows, tc.N, tc.K, precision);
    if (tc.site_tolerance)
        check.site =
            site_allclose_on_device(C, ref.value.data(), static_cast<std::size_t>(rows) * tc.K, *tc.site_tolerance);
    return check;
}

// Warm-up and timed calls, each on inputs from a seed drawn after the previous call
// returned, and each output verified before the next call: nothing a solution keeps
// from one call says anything about the next, and every printed time comes from calls
// whose outputs were right. The times are raw here: the empty-call cost is taken off
// once it is settled (settle_offset).
void CaseReferee::run_timed_calls(Problem &p, const CaseRequest &request, CaseResult &r, PhaseClock &clock,
                                  std::optional<InterleavedCalibration> &calibrations) {
    const TestCase &tc = request.testcase;
    SplitMix64 choices(request.secret);
    Sampler sampler(request.policy.sampling);
    if (request.policy.calibration_between_calls) calibrations = interleaving_for(p, request.policy.sampling);
    r.verification.projection_vectors = projection_vectors;
    r.verification.sampled_elements = sampled_elements;
    for (int call_index = 2; sampler.wants_more(); ++call_index) {
        GeneratorSpec fresh = tc.generator;
        fresh.seed = choices.next();
        clock.measure(&PhaseTimes::generate, [&] { p.generate(fresh, timed_input_set); });
        CallSample sample =
            clock.measure(&PhaseTimes::timing, [&] { return call(solution_, p, RunnerWork::Solve, call_index); });
        sample.throttled = gpu_reports_slowdown();
        const CallCheck check = clock.measure(
            &PhaseTimes::verify, [&] { return verify_call(p, tc, request.policy.precision, choices.next()); });
        ++r.verification.calls;
        ++(check.full ? r.verification.full_checks : r.verification.projected_checks);
        if (check.judgement.verdict != Verdict::AC) {
            r.facts.failed_timed_call = FailedTimedCall{call_index - 1, check.projected, check.full};
            r.failed_in_timed_calls = true;
            return;
        }
        const bool warm_up = sampler.warming_up();
        sampler.record(sample);
        if (!warm_up) clock.measure(&PhaseTimes::timing, [&] { calibrate_between(p, calibrations, sample.ms, true); });
    }
    r.timing = sampler.result();
    r.timing->sm_clock_mhz = current_sm_clock_mhz();
}

CaseReferee::CallCheck CaseReferee::verify_call(Problem &p, const TestCase &tc, Precision precision,
                                                std::uint64_t check_seed) {
    CallCheck check;
    if (p.checked_in_full()) {
        DeviceReference ref(tc.M, tc.N, tc.K, p.layout.batch);
        compute_reference(cublas(), p.A_checked(), p.B_checked(), ref);
        check.full = check_against(p, tc, ref, precision);
        check.projected.integrity = p.integrity();
        check.judgement = judge_output(*check.full, check.projected.integrity);
        return check;
    }
    check.projected = p.projection.check(p.A_checked(), p.B_checked(), p.snapshot_C.data(), check_seed, precision);
    check.projected.integrity = p.integrity();
    check.judgement = judge_timed_call(check.projected, precision, tc.N, p.rows_of_C() * tc.K);
    return check;
}

// cuBLAS's calls on the last timed call's inputs; the last one's output is then checked as a
// solution's would be, since a ratio to cuBLAS means something only where cuBLAS computed
// this problem (the right transposes, strides, epilogue, requantization). A baseline that
// fails is the judge's failure (JE), never the solution's.
TimedRun CaseReferee::time_cublas(Problem &p, const CaseRequest &request,
                                  std::optional<InterleavedCalibration> &calibrations) {
    const SamplingRule &rule = request.policy.sampling;
    Sampler sampler(rule);
    if (request.policy.calibration_between_calls) calibrations = interleaving_for(p, rule);
    std::optional<CallCheck> check;
    while (sampler.wants_more()) {
        CallSample sample = call(baseline_, p, RunnerWork::Cublas, 0);
        sample.throttled = gpu_reports_slowdown();
        const bool warm_up = sampler.warming_up();
        sampler.record(sample);
        // The last call's output is checked now: a calibration call after it is a call too,
        // which poisons C and takes its snapshot (the first H100 run of this check was JE on
        // perf/01-cube-4096, every element "never written", for that reason).
        if (!sampler.wants_more())
            check = verify_call(p, request.testcase, request.policy.precision, SplitMix64(~request.secret).next());
        if (!warm_up) calibrate_between(p, calibrations, sample.ms, false);
    }
    if (!check) // no call was made: C holds no output of the baseline's
        throw CaseStopped(RefereeWork::RefereeFailed, "the baseline was never called");
    if (check->judgement.verdict != Verdict::AC)
        throw CaseStopped(RefereeWork::RefereeFailed,
                          "the baseline's output fails the judge's own check, so its time is no baseline for "
                          "this problem: " +
                              check->judgement.detail);
    TimedRun run = sampler.result();
    run.sm_clock_mhz = current_sm_clock_mhz();
    return run;
}

// Interleaving needs the shape's empty call measured before the run (a run's length is its
// time less that); a shape not calibrated gets its calibration calls after the run.
std::optional<InterleavedCalibration> CaseReferee::interleaving_for(const Problem &p, const SamplingRule &rule) const {
    const auto found = calibrated_.find(key_of(p));
    if (found == calibrated_.end()) return std::nullopt;
    return InterleavedCalibration(found->second.median_ms, rule);
}

// Calibration calls of the run's length between two of its calls, when a turn is due
// (measurement/interleaved_calibration.hpp): they see the moment the run's calls see; the first of
// a turn, which pays for the change of process, is not kept. A solution's run gets the
// same turn in its own process after the baseline's: what the path costs there, which no
// process of the judge's can measure for it (kept beside the offset, never taken off),
// and the solution's next call then follows a call of its own process, as its others do.
void CaseReferee::calibrate_between(Problem &p, std::optional<InterleavedCalibration> &calibrations, double raw_ms,
                                    bool in_solution_process_too) {
    if (!calibrations) return;
    const std::optional<CalibrationTurn> turn = calibrations->after_call(raw_ms);
    if (!turn) return;
    const auto beyond_work = [](const CallSample &s) { return s.ms - std::min(s.own_events_ms.value_or(0.0), s.ms); };
    for (int i = 0; i < turn->calls; ++i) {
        const CallSample s = call(baseline_, p, RunnerWork::Calibration, 0, turn->length_ms, turn->kind);
        if (i > 0) calibrations->record(*turn, beyond_work(s));
    }
    if (!in_solution_process_too) return;
    for (int i = 0; i < turn->calls; ++i) {
        const CallSample s = call(solution_, p, RunnerWork::Calibration, 0, turn->length_ms, turn->kind);
        if (i > 0) calibrations->record_in_solution_process(beyond_work(s));
    }
}

// The GPU was kept busy after the solution's calls: RE, unless a process that is neither
// the judge's nor in the solution's process group has a context on the GPU (measurement/gpu_sharing.hpp),
// which explains the busy GPU as well: then the judge could not judge the case (JE).
void CaseReferee::blame_busy_gpu(const std::string &why) {
    const auto listed = gpu_compute_pids();
    std::vector<pid_t> groups;
    for (const Runner *r : {&baseline_, &solution_})
        if (r->link && r->link->process_group() > 0) groups.push_back(r->link->process_group());
    const GpuSharing sharing = listed ? classify_gpu_processes(*listed, getpid(), groups) : GpuSharing{};
    if (sharing.judge_seen && !sharing.others.empty())
        throw CaseStopped(RefereeWork::RefereeFailed,
                          "the GPU was shared with " + describe_processes(sharing.others) +
                              ", neither the judge's process nor the solution's, so what kept it busy after the "
                              "solution's calls cannot be told (" +
                              why + "): judge again when the GPU is free");
    throw CaseStopped(RefereeWork::SolutionFailed, why);
}

// The empty call's cost to take off every time, and whether the solution kept the GPU
// busy after its calls (RE): measurement/offset_rule.hpp decides from the figures.
void CaseReferee::settle_offset(Problem &p, CaseResult &r, const RunCalibration &interleaved) {
    const auto found = calibrated_.find(key_of(p));
    const std::optional<EmptyCall> before =
        found != calibrated_.end() ? std::optional<EmptyCall>(found->second) : std::nullopt;
    std::vector<EmptyCall> after{measure_empty_calls(p, 11)};
    while (wants_another_try(before, after)) after.push_back(measure_empty_calls(p, 11));
    const EmptyCallDecision decision = settle_empty_call(before, after);
    if (decision.gpu_kept_busy) blame_busy_gpu(decision.why);
    // Each run's own cost beyond its work, from calibration calls of its length (measurement/offset_rule.hpp):
    // the solution's and cuBLAS's differ when their lengths do. A short run's were made
    // between its calls, of every kind in turn; the others' are made now.
    for (std::optional<TimedRun> *run : {&r.timing, &r.baseline}) {
        if (!*run) continue;
        const std::optional<InterleavedCalibration> &between =
            run == &r.timing ? interleaved.solution : interleaved.cublas;
        if (between && between->enough_made()) {
            subtract_empty_call(**run, settle_interleaved_calibration(decision.used, between->pooled(),
                                                                      between->measured(), between->length_ms(),
                                                                      between->pooled_in_solution_process()));
            continue;
        }
        const double length_ms = calibration_length_ms((*run)->stats.median_ms, decision.used);
        if (!wants_calibration(length_ms)) {
            subtract_empty_call(**run, decision.used);
            continue;
        }
        std::vector<std::pair<CalibrationKind, EmptyCall>> calibrations;
        for (CalibrationKind kind : calibration_kinds(length_ms))
            calibrations.emplace_back(kind, measure_empty_calls(p, calibration_calls(length_ms), length_ms, kind));
        subtract_empty_call(**run, settle_calibrations(decision.used, calibrations, length_ms));
    }
}

// Facts only: the verdict is the judge's (verification/case_verdict.cpp). The referee asks the
// same rule whether the checked call passed, to time only an output that was right.
CaseResult CaseReferee::run(const CaseRequest &request) {
    try {
        return run_case(request);
    } catch (const OutOfDeviceMemory &e) {
        problem_.reset(); // what this case holds goes back before anything is measured
        blame_out_of_memory(request.testcase, e.what());
    }
}

// Who holds the memory the case could not get decides whose fault that is (verification/memory_blame.hpp).
void CaseReferee::blame_out_of_memory(const TestCase &tc, const std::string &what) {
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    std::vector<pid_t> judge_groups;
    if (baseline_.link && baseline_.link->process_group() > 0) judge_groups.push_back(baseline_.link->process_group());
    const pid_t solution_group = solution_.link ? solution_.link->process_group() : 0;
    const MemoryBlame blame = gemm::blame_out_of_memory(
        gpu_bytes_needed(tc.M, tc.N, tc.K, tc.layout), double(free_bytes),
        gpu_memory_holders().value_or(std::vector<GpuMemoryHolder>{}), getpid(), solution_group, judge_groups);
    throw CaseStopped(blame.solution_at_fault ? RefereeWork::SolutionFailed : RefereeWork::RefereeFailed,
                      blame.solution_at_fault ? blame.why : what + ": " + blame.why);
}

CaseResult CaseReferee::run_case(const CaseRequest &request) {
    const TestCase &tc = request.testcase;
    CaseResult r;
    r.facts.ending = RefereeWork::Completed;
    judge_.send({{"event", event::judge}});
    PhaseClock clock(r.phases);
    Problem &problem = problem_for(tc.M, tc.N, tc.K, tc.layout);
    problem.dims = tc.dims;
    problem.scalars = tc.scalars;
    problem.passes_nonzeros = tc.passes_nonzeros;
    problem.epilogue = tc.epilogue;
    run_checked_call(problem, request, r, clock);
    const bool checked_call_passed = judge_output(*r.check, *r.facts.checked_integrity).verdict == Verdict::AC;
    if (!checked_call_passed || !request.policy.timed) return r;
    RunCalibration interleaved;
    run_timed_calls(problem, request, r, clock, interleaved.solution);
    if (r.facts.failed_timed_call) return r;
    if (request.policy.baseline)
        r.baseline =
            clock.measure(&PhaseTimes::baseline, [&] { return time_cublas(problem, request, interleaved.cublas); });
    settle_offset(problem, r, interleaved);
    return r;
}

} // namespace gemm
