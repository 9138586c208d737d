// The judge's GPU work agrees with its CPU oracles: the generator bit for bit, the
// full output check figure for figure, the projected check row for row.
#include "common/rng.hpp"
#include "judging/os/gpu_turn.hpp"
#include "referee/canonical_operands.hpp"
#include "referee/device_check.hpp"
#include "referee/device_info.hpp"
#include "referee/device_inputs.hpp"
#include "referee/integrity_check.hpp"
#include "verification/check.hpp"
#include "verification/reference.hpp"
#include "verification/timed_check.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <doctest/doctest.h>
#include <unistd.h>
#include <vector>

using namespace gemm;

namespace {

// The GPU is taken in turn with the judges that other tests start at the same time
// (judging/os/gpu_turn.hpp), before it is probed.
bool skip_without_gpu() {
    GpuTurn::for_this_judge();
    if (probe_device().present) return false;
    std::printf("[skipped: no GPU]\n");
    return true;
}

template <typename T> DeviceArray<T> on_device(const std::vector<T> &values) {
    DeviceArray<T> d(values.size());
    cuda_check(cudaMemcpy(d.data(), values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
    return d;
}

template <typename T> std::vector<T> from_device(const DeviceArray<T> &d) {
    std::vector<T> values(d.size());
    cuda_check(cudaMemcpy(values.data(), d.data(), values.size() * sizeof(T), cudaMemcpyDeviceToHost), "download");
    return values;
}

} // namespace

TEST_CASE("the GPU generator gives the CPU generator's numbers bit for bit") {
    if (skip_without_gpu()) return;
    const struct {
        Distribution distribution;
        double low, high, density;
    } specs[] = {{Distribution::Uniform, -1, 1, 1},  {Distribution::Uniform, 0.25, 3.5, 1},
                 {Distribution::Integers, -7, 9, 1}, {Distribution::Normal, -1, 1, 1},
                 {Distribution::Mixed, -1, 1, 1},    {Distribution::Sparse, -1, 1, 0.3}};
    const int shapes[][2] = {{1, 1}, {3, 5}, {127, 131}, {1000, 3}, {2, 4099}};
    for (const auto &s : specs)
        for (const auto &shape : shapes)
            for (int set : {checked_input_set, timed_input_set}) {
                GeneratorSpec spec;
                spec.distribution = s.distribution;
                spec.low = s.low;
                spec.high = s.high;
                spec.density = s.density;
                spec.seed = 0x1234567890ull + shape[0];
                const auto cpu = generate_matrix(spec, set, MatrixId::B, shape[0], shape[1]);
                DeviceArray<float> gpu(cpu.size());
                generate_on_device(spec, set, MatrixId::B, shape[0], shape[1], gpu.data());
                const auto back = from_device(gpu);
                CAPTURE(distribution_name(s.distribution));
                CAPTURE(shape[0]);
                CAPTURE(shape[1]);
                CHECK(std::memcmp(back.data(), cpu.data(), cpu.size() * sizeof(float)) == 0);
            }
}

TEST_CASE("the GPU generator gives the CPU generator's structured matrices bit for bit: triangles and symmetric") {
    if (skip_without_gpu()) return;
    for (const Structure structure : {Structure::Lower, Structure::Upper, Structure::Symmetric})
        for (const Distribution distribution : {Distribution::Uniform, Distribution::Mixed})
            for (const int n : {1, 7, 130}) {
                GeneratorSpec spec;
                spec.distribution = distribution;
                spec.structure_a = structure;
                spec.seed = 99 + n;
                const auto cpu = generate_matrix(spec, timed_input_set, MatrixId::A, n, n);
                DeviceArray<float> gpu(cpu.size());
                generate_on_device(spec, timed_input_set, MatrixId::A, n, n, gpu.data());
                const auto back = from_device(gpu);
                CAPTURE(static_cast<int>(structure));
                CAPTURE(n);
                CHECK(std::memcmp(back.data(), cpu.data(), cpu.size() * sizeof(float)) == 0);
            }
}

TEST_CASE("the GPU generator gives the CPU generator's masked matrices bit for bit, and their count of non-zeros") {
    if (skip_without_gpu()) return;
    for (const double density : {0.0, 0.35, 1.0})
        for (const int rows : {1, 33, 257}) {
            GeneratorSpec spec;
            spec.structure_a = Structure::Masked;
            spec.mask_density = density;
            spec.seed = 7 + rows;
            const int cols = 301;
            const auto cpu = generate_matrix(spec, checked_input_set, MatrixId::A, rows, cols);
            DeviceArray<float> gpu(cpu.size());
            generate_on_device(spec, checked_input_set, MatrixId::A, rows, cols, gpu.data());
            CAPTURE(density);
            CAPTURE(rows);
            CHECK(std::memcmp(from_device(gpu).data(), cpu.data(), cpu.size() * sizeof(float)) == 0);
            const auto nonzeros = std::count_if(cpu.begin(), cpu.end(), [](float v) { return v != 0.0f; });
            CHECK(count_nonzero_on_device(gpu.data(), gpu.size()) == nonzeros);
        }
}

TEST_CASE("the checks' operands: a batch of transposes turned back, a diagonal laid out square") {
    if (skip_without_gpu()) return;
    const long long batch = 3, rows = 5, cols = 7;
    std::vector<float> stored(batch * rows * cols);
    for (std::size_t i = 0; i < stored.size(); ++i) stored[i] = static_cast<float>(i) + 0.5f;
    const auto d_stored = on_device(stored);
    DeviceArray<float> transposed(stored.size());
    transpose_on_device(d_stored.data(), batch, rows, cols, transposed.data());
    const auto t = from_device(transposed);
    for (long long b = 0; b < batch; ++b)
        for (long long r = 0; r < rows; ++r)
            for (long long c = 0; c < cols; ++c)
                CHECK(t[b * rows * cols + c * rows + r] == stored[b * rows * cols + r * cols + c]);
    const long long n = 4;
    const std::vector<float> diagonal{1, -2, 3, 0.25f, 5, 6, 7, 8};
    const auto d_diagonal = on_device(diagonal);
    DeviceArray<float> square(2 * n * n);
    diagonal_on_device(d_diagonal.data(), 2, n, square.data());
    const auto q = from_device(square);
    for (long long b = 0; b < 2; ++b)
        for (long long r = 0; r < n; ++r)
            for (long long c = 0; c < n; ++c) CHECK(q[b * n * n + r * n + c] == (r == c ? diagonal[b * n + r] : 0.0f));
}

TEST_CASE("the GPU projected check of a batch projects each product on its own vectors") {
    if (skip_without_gpu()) return;
    const int M = 40, N = 1100, K = 33;
    const long long batch = 5;
    GeneratorSpec spec;
    spec.seed = 21;
    const auto A = generate_matrix(spec, 0, MatrixId::A, static_cast<int>(batch * M), N);
    const auto B = generate_matrix(spec, 0, MatrixId::B, static_cast<int>(batch * N), K);
    std::vector<float> C;
    for (long long b = 0; b < batch; ++b) {
        const std::vector<float> a(A.begin() + b * M * N, A.begin() + (b + 1) * M * N);
        const std::vector<float> bb(B.begin() + b * N * K, B.begin() + (b + 1) * N * K);
        const Reference ref = reference_on_cpu(a, bb, M, N, K);
        C.insert(C.end(), ref.value.begin(), ref.value.end());
    }
    const auto a = on_device(A), b = on_device(B), right = on_device(C);
    ProjectionWorkspace workspace(M, N, K, batch);
    const TimedCallCheck good = workspace.check(a.data(), b.data(), right.data(), 5, Precision::FP32);
    CHECK(good.projection.rows_checked == projection_vectors * M * batch);
    CHECK(good.projection.rows_failed == 0);
    CHECK(good.samples.out_of_bound == 0);
    CHECK(judge_timed_call(good, Precision::FP32, N, M * K * batch).verdict == Verdict::AC);
    // The fourth product computed with the second's B: a wrong stride the other products hide.
    std::vector<float> wrong = C;
    {
        const std::vector<float> a3(A.begin() + 3 * M * N, A.begin() + 4 * M * N);
        const std::vector<float> b1(B.begin() + 1 * N * K, B.begin() + 2 * N * K);
        const Reference ref = reference_on_cpu(a3, b1, M, N, K);
        std::copy(ref.value.begin(), ref.value.end(), wrong.begin() + 3 * M * K);
    }
    const auto bad_c = on_device(wrong);
    const TimedCallCheck bad = workspace.check(a.data(), b.data(), bad_c.data(), 6, Precision::FP32);
    CHECK(bad.projection.rows_failed > projection_vectors * M / 2);
    CHECK(bad.projection.first_failed_row >= 3 * M);
    CHECK(bad.projection.first_failed_row < 4 * M);
    CHECK(judge_timed_call(bad, Precision::FP32, N, M * K * batch).verdict == Verdict::WA);
}

TEST_CASE("the GPU output check gives the CPU check's figures") {
    if (skip_without_gpu()) return;
    const int M = 67, N = 129, K = 45;
    GeneratorSpec spec;
    spec.seed = 5;
    const auto A = generate_matrix(spec, 0, MatrixId::A, M, N), B = generate_matrix(spec, 0, MatrixId::B, N, K);
    const Reference ref = reference_on_cpu(A, B, M, N, K);
    std::vector<float> C(ref.value.begin(), ref.value.end());
    C[5] += 1.0f;                              // out of bound
    C[K * 3 + 7] = std::nanf("");              // non-finite
    std::memset(&C[K * (M - 1)], 0xFF, 4 * K); // the last row unwritten
    const OutputCheck cpu = compare_output(C.data(), ref);
    const auto c = on_device(C);
    const auto r = on_device(ref.value), m = on_device(ref.magnitude);
    const OutputCheck gpu = check_output_on_device(c.data(), r.data(), m.data(), M, N, K, Precision::FP32);
    CHECK(gpu.out_of_bound == cpu.out_of_bound);
    CHECK(gpu.non_finite == cpu.non_finite);
    CHECK(gpu.unwritten == cpu.unwritten);
    REQUIRE(gpu.first_unwritten.has_value());
    CHECK(gpu.first_unwritten->row == M - 1);
    CHECK(gpu.first_out_of_bound->col == 5);
    CHECK(gpu.map == cpu.map);
    CHECK(gpu.pattern == cpu.pattern);
    CHECK(gpu.elementwise_ratio == doctest::Approx(cpu.elementwise_ratio));
    CHECK(gpu.normwise_error == doctest::Approx(cpu.normwise_error).epsilon(1e-9));
}

TEST_CASE("the GPU projected check passes a right output and finds a replayed one") {
    if (skip_without_gpu()) return;
    const int M = 300, N = 777, K = 2100; // rows of C longer than one warp's segment
    GeneratorSpec spec;
    spec.seed = 9;
    const auto A = generate_matrix(spec, 0, MatrixId::A, M, N), B = generate_matrix(spec, 0, MatrixId::B, N, K);
    const Reference ref = reference_on_cpu(A, B, M, N, K);
    const std::vector<float> right(ref.value.begin(), ref.value.end());
    const auto a = on_device(A), b = on_device(B), c = on_device(right);
    ProjectionWorkspace workspace(M, N, K);
    const TimedCallCheck good = workspace.check(a.data(), b.data(), c.data(), 42, Precision::FP32);
    CHECK(good.projection.rows_checked == projection_vectors * M);
    CHECK(good.projection.rows_failed == 0);
    CHECK(good.projection.worst_ratio < 1e-3); // a rounded FP64 product is far inside an FP32 bound
    CHECK(good.samples.samples == sampled_elements);
    CHECK(judge_timed_call(good, Precision::FP32, N, static_cast<long long>(M) * K).verdict == Verdict::AC);

    const auto other = generate_matrix(spec, 1, MatrixId::A, M, N); // the answer of another call's inputs
    const Reference stale = reference_on_cpu(other, B, M, N, K);
    const auto replayed = on_device(std::vector<float>(stale.value.begin(), stale.value.end()));
    const TimedCallCheck bad = workspace.check(a.data(), b.data(), replayed.data(), 43, Precision::FP32);
    CHECK(bad.projection.rows_failed > projection_vectors * M / 2);
    CHECK(bad.samples.out_of_bound > sampled_elements / 2);
    CHECK(judge_timed_call(bad, Precision::FP32, N, static_cast<long long>(M) * K).verdict == Verdict::WA);
}

TEST_CASE("the integrity check finds a changed input float and a write into any guard band") {
    if (skip_without_gpu()) return;
    const std::size_t a = 100000, b = 3000, c = 777;
    DeviceArray<float> storage(
        (GuardedBuffer::footprint(a) + GuardedBuffer::footprint(b) + GuardedBuffer::footprint(c)) / sizeof(float));
    float *base = storage.data();
    GuardedBuffer A(base, a), B(base + GuardedBuffer::footprint(a) / 4, b),
        C(base + (GuardedBuffer::footprint(a) + GuardedBuffer::footprint(b)) / 4, c);
    std::vector<float> values(a, 1.5f);
    const auto pristine_A = on_device(values);
    const auto pristine_B = on_device(std::vector<float>(b, -2.0f));
    A.copy_from(pristine_A.data());
    B.copy_from(pristine_B.data());
    for (GuardedBuffer *buffer : {&A, &B, &C}) buffer->fill_guards();
    IntegrityWorkspace workspace;
    const IntegrityCheck clean = workspace.check(A, pristine_A.data(), B, pristine_B.data(), C);
    CHECK_FALSE(clean.A_modified);
    CHECK_FALSE(clean.B_modified);
    CHECK(clean.floats_written_before_C == 0);
    CHECK(clean.floats_written_after_C == 0);

    const float changed = 1.5000001f, zero = 0;
    cuda_check(cudaMemcpy(A.data() + 99999, &changed, sizeof changed, cudaMemcpyHostToDevice), "poke");
    cuda_check(cudaMemcpy(C.data() - 3, &zero, sizeof zero, cudaMemcpyHostToDevice), "poke");
    cuda_check(cudaMemcpy(C.data() + c + 143, &zero, sizeof zero, cudaMemcpyHostToDevice), "poke");
    const IntegrityCheck damaged = workspace.check(A, pristine_A.data(), B, pristine_B.data(), C);
    CHECK(damaged.A_modified);
    CHECK_FALSE(damaged.B_modified);
    CHECK(damaged.floats_written_before_C == 3);
    CHECK(damaged.floats_written_after_C == 144);
}

// The referee tells another program's kernels from the solution's by the PIDs NVML lists
// (measurement/gpu_sharing.hpp): they must be this PID namespace's, or it can name nobody.
TEST_CASE("NVML lists this process once it holds a CUDA context, by the PID this namespace knows") {
    if (skip_without_gpu()) return;
    cuda_check(cudaFree(nullptr), "context");
    const auto pids = gpu_compute_pids();
    REQUIRE(pids.has_value());
    CHECK(std::find(pids->begin(), pids->end(), getpid()) != pids->end());
}
