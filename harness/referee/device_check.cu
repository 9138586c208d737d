#include "referee/device_check.hpp"
#include "verification/diagnosis.hpp"
#include "verification/element_check.hpp"
#include "verification/epilogue_bound.hpp"
#include "verification/requantization_explanation.hpp"

#include <cmath>
#include <cstring>
#include <vector>

namespace gemm {

namespace {

constexpr int threads_per_block = 256;
constexpr unsigned long long none = ~0ull;

unsigned blocks_for(std::size_t work_items, int per_block = threads_per_block) {
    const std::size_t blocks = (work_items + per_block - 1) / per_block;
    return static_cast<unsigned>(blocks < 1 ? 1 : blocks > 65536 ? 65536 : blocks);
}

__device__ double warp_sum(double v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
    return v;
}

__device__ unsigned long long warp_sum(unsigned long long v) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
    return v;
}

__device__ unsigned long long warp_min(unsigned long long v) {
    for (int offset = 16; offset > 0; offset /= 2) v = min(v, __shfl_down_sync(0xFFFFFFFFu, v, offset));
    return v;
}

// Non-negative doubles (infinity included) order like their bit patterns, so the
// largest is an integer atomicMax away.
__device__ unsigned long long ratio_bits(double ratio) {
    return __double_as_longlong(ratio != ratio ? __longlong_as_double(0x7FF0000000000000ll) : ratio);
}

__device__ unsigned long long warp_max(unsigned long long v) {
    for (int offset = 16; offset > 0; offset /= 2) v = max(v, __shfl_down_sync(0xFFFFFFFFu, v, offset));
    return v;
}

// ---- the full check ------------------------------------------------------------------

struct FullTally {
    unsigned long long count[3]; // unwritten, non-finite, out of bound
    unsigned long long first[3]; // linear index of the first of each, `none` when none
    unsigned long long max_ratio_bits;
    double error_sq, reference_sq;
};

__global__ void full_check(const float *C, const double *R, const double *magnitude, int M, int K,
                           double bound_per_magnitude, FullTally *tally, unsigned *per_row, unsigned *per_col,
                           unsigned *cells) {
    const std::size_t n = static_cast<std::size_t>(M) * K;
    unsigned long long count[3] = {0, 0, 0}, first[3] = {none, none, none}, max_ratio = 0;
    double error_sq = 0, reference_sq = 0;
    // Every thread runs the same number of iterations, so the warp reductions below see all lanes.
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t base = std::size_t(blockIdx.x) * blockDim.x; base < n; base += stride) {
        const std::size_t e = base + threadIdx.x;
        if (e >= n) continue;
        const float c = C[e];
        const double r = R[e];
        const ElementVerdict v = check_element(__float_as_uint(c), c, r, bound_per_magnitude * magnitude[e]);
        reference_sq += r * r;
        error_sq += v.error * v.error;
        max_ratio = max(max_ratio, ratio_bits(v.ratio));
        if (v.state == ElementState::Right) continue;
        const int slot = v.state == ElementState::Unwritten ? 0 : v.state == ElementState::NonFinite ? 1 : 2;
        ++count[slot];
        first[slot] = min(first[slot], static_cast<unsigned long long>(e));
        const long long row = static_cast<long long>(e / K), col = static_cast<long long>(e % K);
        atomicAdd(&per_row[row], 1u);
        atomicAdd(&per_col[col], 1u);
        atomicOr(&cells[map_cell_index(row, col, M, K)], slot == 0 ? map_cell_unwritten : map_cell_wrong);
    }
    error_sq = warp_sum(error_sq);
    reference_sq = warp_sum(reference_sq);
    max_ratio = warp_max(max_ratio);
    for (int s = 0; s < 3; ++s) {
        count[s] = warp_sum(count[s]);
        first[s] = warp_min(first[s]);
    }
    if (threadIdx.x % 32 != 0) return;
    atomicAdd(&tally->error_sq, error_sq);
    atomicAdd(&tally->reference_sq, reference_sq);
    atomicMax(&tally->max_ratio_bits, max_ratio);
    for (int s = 0; s < 3; ++s) {
        if (count[s] == 0) continue;
        atomicAdd(&tally->count[s], count[s]);
        atomicMin(&tally->first[s], first[s]);
    }
}

template <typename T> T fetch(const T *device_value) {
    T value;
    cuda_check(cudaMemcpy(&value, device_value, sizeof value, cudaMemcpyDeviceToHost), "reading a checked element");
    return value;
}

template <typename T> std::vector<T> fetch_all(const DeviceArray<T> &device_values) {
    std::vector<T> values(device_values.size());
    cuda_check(cudaMemcpy(values.data(), device_values.data(), values.size() * sizeof(T), cudaMemcpyDeviceToHost),
               "reading the check's counts");
    return values;
}

std::vector<long long> widened(const std::vector<unsigned> &counts) { return {counts.begin(), counts.end()}; }

// ---- integrity and widening ------------------------------------------------------------

__global__ void widen(const float *values, std::size_t n, bool absolute, double *wide) {
    for (std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; e < n;
         e += std::size_t(gridDim.x) * blockDim.x)
        wide[e] = absolute ? fabs(static_cast<double>(values[e])) : static_cast<double>(values[e]);
}

// ---- the projected check -----------------------------------------------------------------

__device__ std::uint64_t check_draw(std::uint64_t stream, std::uint64_t k) {
    return splitmix64_mix(stream + (k + 1) * golden_gamma);
}

__global__ void random_signs(std::uint64_t stream, std::size_t n, double *x) {
    for (std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; e < n;
         e += std::size_t(gridDim.x) * blockDim.x)
        x[e] = (check_draw(stream, e) >> 63) ? -1.0 : 1.0;
}

constexpr int segment_columns = 1024; // one warp's share of a row

// out[v][row] += Σ Mat[row, j]·vec[v][g][j] and out_magnitude[row] += Σ |Mat[row, j]|·vec_magnitude[g][j]
// (vec_magnitude null: all ones), over segments of a row, one warp per segment; g is the row's
// product in a batch (rows_per_group rows each), whose own vectors it is projected on. Every
// sum is in FP64; the order differs from run to run, which the bound allows for.
__global__ void project_rows(const float *Mat, long long rows, int cols, long long rows_per_group, const double *vec,
                             const double *vec_magnitude, double *out, double *out_magnitude) {
    const int segments_per_row = (cols + segment_columns - 1) / segment_columns;
    const long long segments = rows * segments_per_row;
    const long long groups = rows / rows_per_group;
    const int lane = threadIdx.x % 32;
    const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
    for (long long s = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; s < segments; s += warps) {
        const long long row = s / segments_per_row;
        const int begin = static_cast<int>(s % segments_per_row) * segment_columns;
        const int end = min(cols, begin + segment_columns);
        const long long group = row / rows_per_group;
        double dot[projection_vectors] = {}, magnitude = 0;
        const float *line = Mat + row * cols;
        for (int j = begin + lane; j < end; j += 32) {
            const double m = line[j];
            for (int v = 0; v < projection_vectors; ++v)
                dot[v] += m * vec[(static_cast<std::size_t>(v) * groups + group) * cols + j];
            magnitude += fabs(m) * (vec_magnitude ? vec_magnitude[group * cols + j] : 1.0);
        }
        for (int v = 0; v < projection_vectors; ++v) dot[v] = warp_sum(dot[v]);
        magnitude = warp_sum(magnitude);
        if (lane != 0) continue;
        for (int v = 0; v < projection_vectors; ++v) atomicAdd(&out[static_cast<std::size_t>(v) * rows + row], dot[v]);
        atomicAdd(&out_magnitude[row], magnitude);
    }
}

struct ProjectionCounts {
    unsigned long long failed, first, worst_ratio_bits;
};

__global__ void compare_projections(const double *output, const double *output_magnitude, const double *product,
                                    const double *magnitude, long long M, int N, int K, double bound_per_magnitude,
                                    ProjectionCounts *counts) {
    const std::size_t n = static_cast<std::size_t>(projection_vectors) * M;
    unsigned long long failed = 0, first = none, worst = 0;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t base = std::size_t(blockIdx.x) * blockDim.x; base < n; base += stride) {
        const std::size_t e = base + threadIdx.x;
        if (e >= n) continue;
        const std::size_t row = e % M;
        const double difference = fabs(output[e] - product[e]);
        const double bound = projection_bound(N, K, magnitude[row], output_magnitude[row], bound_per_magnitude);
        const bool bad = !(difference <= bound);
        worst = max(worst, ratio_bits(bound > 0 ? difference / bound : difference > 0 ? 1.0 / 0.0 : 0.0));
        if (!bad) continue;
        ++failed;
        first = min(first, static_cast<unsigned long long>(e));
    }
    failed = warp_sum(failed);
    first = warp_min(first);
    worst = warp_max(worst);
    if (threadIdx.x % 32 != 0) return;
    if (failed > 0) {
        atomicAdd(&counts->failed, failed);
        atomicMin(&counts->first, first);
    }
    atomicMax(&counts->worst_ratio_bits, worst);
}

constexpr int sample_threads = 128;

// One block per sampled element: its FP64 dot product, magnitude, and C's bits. A column
// of B is a strided read, so the block's four warps share the N loads to keep enough of
// them in flight. A batch's rows are its products' rows one after another (M each).
__global__ void sample_elements(const float *A, const float *B, const float *C, int M, int N, int K, long long batch,
                                std::uint64_t stream, long long *positions, double *values) {
    __shared__ double partial[2][sample_threads / 32];
    const int s = blockIdx.x;
    const long long rows = M * batch;
    const long long row = static_cast<long long>(check_draw(stream, 2ull * s) % static_cast<unsigned long long>(rows));
    const long long col = static_cast<long long>(check_draw(stream, 2ull * s + 1) % static_cast<unsigned>(K));
    const float *B_of_row = B + (row / M) * static_cast<long long>(N) * K;
    double r = 0, magnitude = 0;
    for (int k = threadIdx.x; k < N; k += sample_threads) {
        const double a = A[row * N + k], b = B_of_row[static_cast<long long>(k) * K + col];
        r += a * b;
        magnitude += fabs(a) * fabs(b);
    }
    r = warp_sum(r);
    magnitude = warp_sum(magnitude);
    if (threadIdx.x % 32 == 0) {
        partial[0][threadIdx.x / 32] = r;
        partial[1][threadIdx.x / 32] = magnitude;
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    r = magnitude = 0;
    for (int w = 0; w < sample_threads / 32; ++w) {
        r += partial[0][w];
        magnitude += partial[1][w];
    }
    positions[2 * s] = row;
    positions[2 * s + 1] = col;
    values[3 * s] = r;
    values[3 * s + 1] = magnitude;
    values[3 * s + 2] = static_cast<double>(__float_as_uint(C[row * K + col]));
}

// Counts the elements outside the site's allclose (verification/site_allclose.hpp).
__global__ void count_outside_site_allclose(const float *C, const double *R, std::size_t n, SiteTolerance t,
                                            unsigned long long *outside) {
    unsigned long long mine = 0;
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<std::size_t>(gridDim.x) * blockDim.x)
        if (!within_site_allclose(C[i], R[i], t)) ++mine;
    if (mine) atomicAdd(outside, mine);
}

} // namespace

SiteAllclose site_allclose_on_device(const float *C, const double *R, std::size_t n, SiteTolerance t) {
    SiteAllclose s;
    s.tolerance = t;
    s.elements = static_cast<long long>(n);
    DeviceArray<unsigned long long> outside(1);
    cuda_check(cudaMemset(outside.data(), 0, sizeof(unsigned long long)), "the site's allclose");
    count_outside_site_allclose<<<std::min(blocks_for(n), 4096u), threads_per_block>>>(C, R, n, t, outside.data());
    cuda_check(cudaGetLastError(), "the site's allclose");
    s.outside = static_cast<long long>(fetch(outside.data()));
    return s;
}

OutputCheck check_output_on_device(const float *C, const double *R, const double *magnitude, int M, int N, int K,
                                   Precision precision) {
    OutputCheck out;
    out.precision = precision;
    out.elements = static_cast<long long>(M) * K;
    const double bound_per_magnitude = elementwise_bound(N, 1.0, precision);
    DeviceArray<FullTally> tally(1);
    DeviceArray<unsigned> per_row(M), per_col(K), cells(static_cast<std::size_t>(map_cell_rows(M)) * map_cell_cols(K));
    FullTally start{};
    for (auto &f : start.first) f = none;
    cuda_check(cudaMemcpy(tally.data(), &start, sizeof start, cudaMemcpyHostToDevice), "check setup");
    for (auto *counts : {&per_row, &per_col, &cells})
        cuda_check(cudaMemset(counts->data(), 0, counts->size() * sizeof(unsigned)), "check setup");
    full_check<<<blocks_for(out.elements), threads_per_block>>>(
        C, R, magnitude, M, K, bound_per_magnitude, tally.data(), per_row.data(), per_col.data(), cells.data());
    cuda_check(cudaGetLastError(), "the output check");
    const FullTally t = fetch(tally.data());
    std::uint64_t ratio_bits;
    std::memcpy(&out.elementwise_ratio, &(ratio_bits = t.max_ratio_bits), sizeof ratio_bits);
    out.unwritten = static_cast<long long>(t.count[0]);
    out.non_finite = static_cast<long long>(t.count[1]);
    out.out_of_bound = static_cast<long long>(t.count[2]);
    std::optional<BadElement> *firsts[3] = {&out.first_unwritten, &out.first_non_finite, &out.first_out_of_bound};
    for (int s = 0; s < 3; ++s) {
        if (t.first[s] == none) continue;
        const std::size_t e = t.first[s];
        const double bound = bound_per_magnitude * fetch(magnitude + e);
        *firsts[s] =
            BadElement{static_cast<long long>(e / K), static_cast<long long>(e % K), fetch(R + e), fetch(C + e), bound};
    }
    const bool any_bad = out.unwritten + out.non_finite + out.out_of_bound > 0;
    const BadElementCounts bad =
        any_bad ? BadElementCounts(M, K, widened(fetch_all(per_row)), widened(fetch_all(per_col)), fetch_all(cells))
                : BadElementCounts(M, K);
    finish_output_check(out, N, t.error_sq, t.reference_sq, bad);
    return out;
}

namespace {

// What the epilogue's check needs beside the elements: ‖P‖², ‖F‖², the largest |factor|, and a
// sum's value, bound and weight (verification/epilogue_bound.hpp, sigmoid_sum_of).
struct EpilogueTally {
    double product_sq, result_sq;
    unsigned long long largest_factor_bits;
    double sum_value, sum_bound, sum_weight;
};

__global__ void carry_through_epilogue(double *R, double *magnitude, const float *bias, const float *factor,
                                       Epilogue epilogue, std::size_t n, int K, double bound_per_magnitude,
                                       EpilogueTally *tally) {
    double product_sq = 0, result_sq = 0, sum_value = 0, sum_bound = 0, sum_weight = 0;
    unsigned long long largest_factor = 0;
    const bool sums = epilogue.sums();
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t base = std::size_t(blockIdx.x) * blockDim.x; base < n; base += stride) {
        const std::size_t e = base + threadIdx.x;
        if (e >= n) continue;
        const BoundedValue p{R[e], bound_per_magnitude * magnitude[e]};
        product_sq += p.value * p.value;
        if (sums) {
            const SigmoidTerm t = sigmoid_term(p);
            sum_value += t.value;
            sum_bound += t.bound;
            sum_weight += t.weight;
            continue;
        }
        const double f = factor ? static_cast<double>(factor[e]) : 0.0;
        largest_factor = max(largest_factor, ratio_bits(fabs(f)));
        const BoundedValue q = through_epilogue(p, epilogue, bias ? static_cast<double>(bias[e % K]) : 0.0, f);
        R[e] = q.value;
        magnitude[e] = bound_per_magnitude > 0 ? q.bound / bound_per_magnitude : 0.0;
        result_sq += q.value * q.value;
    }
    product_sq = warp_sum(product_sq);
    result_sq = warp_sum(result_sq);
    sum_value = warp_sum(sum_value);
    sum_bound = warp_sum(sum_bound);
    sum_weight = warp_sum(sum_weight);
    largest_factor = warp_max(largest_factor);
    if (threadIdx.x % 32 != 0) return;
    atomicAdd(&tally->product_sq, product_sq);
    atomicAdd(&tally->result_sq, result_sq);
    atomicAdd(&tally->sum_value, sum_value);
    atomicAdd(&tally->sum_bound, sum_bound);
    atomicAdd(&tally->sum_weight, sum_weight);
    atomicMax(&tally->largest_factor_bits, largest_factor);
}

double from_bits(unsigned long long bits) {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// A sum's one number against the sum of the sigmoids: one element, whose bound is the rigorous one
// of any summation order, so its elementwise and normwise tests are the same test.
OutputCheck check_sum(const float *C, const EpilogueTally &t, std::size_t n, int N, Precision precision) {
    const BoundedValue expected = sigmoid_sum_of({t.sum_value, t.sum_bound, t.sum_weight}, static_cast<double>(n));
    const float c = fetch(C);
    std::uint32_t bits;
    std::memcpy(&bits, &c, sizeof bits);
    const ElementVerdict v = check_element(bits, c, expected.value, expected.bound);
    OutputCheck out;
    out.precision = precision;
    out.elements = 1;
    out.elementwise_ratio = v.ratio;
    out.normwise_ratio = v.ratio;
    out.normwise_error = expected.value != 0 ? v.error / std::fabs(expected.value) : v.error;
    out.error_class = error_class(out.normwise_error, N);
    const BadElement element{0, 0, expected.value, c, expected.bound};
    if (v.state == ElementState::Unwritten) out.unwritten = 1, out.first_unwritten = element;
    if (v.state == ElementState::NonFinite) out.non_finite = 1, out.first_non_finite = element;
    if (v.state == ElementState::OutOfBound) out.out_of_bound = 1, out.first_out_of_bound = element;
    return out;
}

} // namespace

OutputCheck check_epilogue_output_on_device(const float *C, double *R, double *magnitude, const float *bias,
                                            const float *factor, const Epilogue &epilogue, int M, int N, int K,
                                            Precision precision, const std::optional<SiteTolerance> &site) {
    const std::size_t n = static_cast<std::size_t>(M) * K;
    const double bound_per_magnitude = elementwise_bound(N, 1.0, precision);
    DeviceArray<EpilogueTally> tally(1);
    cuda_check(cudaMemset(tally.data(), 0, sizeof(EpilogueTally)), "epilogue check setup");
    carry_through_epilogue<<<blocks_for(n), threads_per_block>>>(R, magnitude, bias, factor, epilogue, n, K,
                                                                 bound_per_magnitude, tally.data());
    cuda_check(cudaGetLastError(), "the epilogue's reference");
    const EpilogueTally t = fetch(tally.data());
    OutputCheck out;
    if (epilogue.sums()) {
        out = check_sum(C, t, n, N, precision);
        // The expected sum where the site's allclose reads it: R's first element.
        const double expected = sigmoid_sum_of({t.sum_value, t.sum_bound, t.sum_weight}, double(n)).value;
        cuda_check(cudaMemcpy(R, &expected, sizeof expected, cudaMemcpyHostToDevice), "epilogue check");
        if (site) out.site = site_allclose_on_device(C, R, 1, *site);
        return out;
    }
    out = check_output_on_device(C, R, magnitude, M, N, K, precision);
    // The normwise test of an epilogue (epilogue_bound.hpp): the product's tolerance carried by
    // the steps' largest slope, plus the steps' own rounding.
    const double f_norm = std::sqrt(t.result_sq);
    const double error_norm = f_norm > 0 ? out.normwise_error * f_norm : out.normwise_error;
    out.normwise_ratio =
        epilogue_normwise_ratio(error_norm, f_norm, std::sqrt(t.product_sq), normwise_tolerance(N, precision),
                                epilogue_slope(epilogue, from_bits(t.largest_factor_bits)));
    if (site) out.site = site_allclose_on_device(C, R, n, *site);
    return out;
}

namespace {

// What the scaled check needs beside the elements: ‖P‖², ‖|α·P| + |β·C₀|‖² and ‖V‖².
struct ScaledTally {
    double product_sq, terms_sq, result_sq;
};

__global__ void carry_through_scaling(double *R, double *magnitude, const float *C0, ScaledProduct scaling,
                                      std::size_t n, double bound_per_magnitude, ScaledTally *tally) {
    double product_sq = 0, terms_sq = 0, result_sq = 0;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t base = std::size_t(blockIdx.x) * blockDim.x; base < n; base += stride) {
        const std::size_t e = base + threadIdx.x;
        if (e >= n) continue;
        const double p = R[e], c0 = C0 ? static_cast<double>(C0[e]) : 0.0;
        const ScaledElement v = scaled_element_of(p, bound_per_magnitude * magnitude[e], c0, scaling);
        R[e] = v.value;
        magnitude[e] = bound_per_magnitude > 0 ? v.bound / bound_per_magnitude : 0.0;
        const double terms = fabs(scaling.alpha * p) + fabs(scaling.beta * c0);
        product_sq += p * p;
        terms_sq += terms * terms;
        result_sq += v.value * v.value;
    }
    product_sq = warp_sum(product_sq);
    terms_sq = warp_sum(terms_sq);
    result_sq = warp_sum(result_sq);
    if (threadIdx.x % 32 != 0) return;
    atomicAdd(&tally->product_sq, product_sq);
    atomicAdd(&tally->terms_sq, terms_sq);
    atomicAdd(&tally->result_sq, result_sq);
}

} // namespace

OutputCheck check_scaled_output_on_device(const float *C, double *R, double *magnitude, const float *C0,
                                          const ScaledProduct &scaling, int M, int N, int K, Precision precision,
                                          const std::optional<SiteTolerance> &site) {
    const std::size_t n = static_cast<std::size_t>(M) * K;
    const double bound_per_magnitude = elementwise_bound(N, 1.0, precision);
    DeviceArray<ScaledTally> tally(1);
    cuda_check(cudaMemset(tally.data(), 0, sizeof(ScaledTally)), "scaled check setup");
    carry_through_scaling<<<blocks_for(n), threads_per_block>>>(R, magnitude, C0, scaling, n, bound_per_magnitude,
                                                                tally.data());
    cuda_check(cudaGetLastError(), "the scaled reference");
    const ScaledTally t = fetch(tally.data());
    OutputCheck out = check_output_on_device(C, R, magnitude, M, N, K, precision);
    const double v_norm = std::sqrt(t.result_sq);
    const double error_norm = v_norm > 0 ? out.normwise_error * v_norm : out.normwise_error;
    out.normwise_ratio = scaled_normwise_ratio(error_norm, std::sqrt(t.product_sq), std::sqrt(t.terms_sq), v_norm,
                                               normwise_tolerance(N, precision), scaling);
    out.error_class =
        scaled_error_class(error_norm, std::sqrt(t.product_sq), std::sqrt(t.terms_sq), v_norm, N, scaling);
    if (site) out.site = site_allclose_on_device(C, R, n, *site);
    return out;
}

namespace {

__global__ void carry_through_requantization(double *R, double *magnitude, Requantization q, std::size_t n) {
    for (std::size_t e = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; e < n;
         e += std::size_t(gridDim.x) * blockDim.x) {
        R[e] = q.output(R[e]);
        magnitude[e] = 0; // no bound: equal or wrong
    }
}

} // namespace

OutputCheck check_requantized_output_on_device(const float *C, double *R, double *magnitude, const float *A,
                                               const float *B, const Requantization &q, int M, int N, int K,
                                               const std::optional<SiteTolerance> &site) {
    const std::size_t n = static_cast<std::size_t>(M) * K;
    carry_through_requantization<<<blocks_for(n), threads_per_block>>>(R, magnitude, q, n);
    cuda_check(cudaGetLastError(), "the requantized reference");
    OutputCheck out = check_output_on_device(C, R, magnitude, M, N, K, Precision::FP32);
    out.exact = true;
    out.normwise_ratio = 0;
    out.error_class = out.out_of_bound > 0 ? "not exact" : "exact";
    if (out.first_out_of_bound) {
        const BadElement &e = *out.first_out_of_bound;
        std::vector<float> row(N), column(N);
        cuda_check(cudaMemcpy(row.data(), A + e.row * N, N * sizeof(float), cudaMemcpyDeviceToHost),
                   "reading a wrong element's row of A");
        cuda_check(cudaMemcpy2D(column.data(), sizeof(float), B + e.col, static_cast<std::size_t>(K) * sizeof(float),
                                sizeof(float), N, cudaMemcpyDeviceToHost),
                   "reading a wrong element's column of B");
        std::vector<double> terms(N);
        for (int i = 0; i < N; ++i) terms[i] = static_cast<double>(row[i]) * column[i];
        out.explanation = explain_requantized_element(q, terms, static_cast<int>(e.got));
    }
    if (site) out.site = site_allclose_on_device(C, R, n, *site);
    return out;
}

void widen_on_device(const float *values, std::size_t n, bool absolute, double *wide) {
    widen<<<blocks_for(n), threads_per_block>>>(values, n, absolute, wide);
    cuda_check(cudaGetLastError(), "widening to FP64");
}

ProjectionWorkspace::ProjectionWorkspace(int M, int N, int K, long long batch)
    : M_(M), N_(N), K_(K), batch_(batch), x_(std::size_t(projection_vectors) * batch * K),
      y_(std::size_t(projection_vectors) * batch * N), y_magnitude_(std::size_t(batch) * N),
      product_(std::size_t(projection_vectors) * batch * M), magnitude_(std::size_t(batch) * M),
      output_(std::size_t(projection_vectors) * batch * M), output_magnitude_(std::size_t(batch) * M),
      sample_values_(3 * sampled_elements), sample_positions_(2 * sampled_elements), tally_(3) {}

TimedCallCheck ProjectionWorkspace::check(const float *A, const float *B, const float *C, std::uint64_t seed,
                                          Precision precision) {
    TimedCallCheck c;
    c.projection = project(A, B, C, splitmix64_mix(seed + 1), precision);
    c.samples = sample(A, B, C, splitmix64_mix(seed + 2), precision);
    return c;
}

ProjectionTally ProjectionWorkspace::project(const float *A, const float *B, const float *C, std::uint64_t seed,
                                             Precision precision) {
    for (auto *zeroed : {&y_, &y_magnitude_, &product_, &magnitude_, &output_, &output_magnitude_})
        cuda_check(cudaMemsetAsync(zeroed->data(), 0, zeroed->size() * sizeof(double), 0), "projection setup");
    const ProjectionCounts start{0, none, 0};
    cuda_check(cudaMemcpy(tally_.data(), &start, sizeof start, cudaMemcpyHostToDevice), "projection setup");
    random_signs<<<blocks_for(x_.size()), threads_per_block>>>(seed, x_.size(), x_.data());
    auto warps_for = [](long long rows, int cols) {
        const std::size_t segments = std::size_t(rows) * ((cols + segment_columns - 1) / segment_columns);
        return blocks_for(segments, threads_per_block / 32);
    };
    // Each product of a batch is projected on its own vectors: y = B·x, A·y against C·x.
    const long long rows_A = M_ * batch_, rows_B = N_ * batch_;
    project_rows<<<warps_for(rows_B, K_), threads_per_block>>>(B, rows_B, K_, N_, x_.data(), nullptr, y_.data(),
                                                               y_magnitude_.data());
    project_rows<<<warps_for(rows_A, N_), threads_per_block>>>(A, rows_A, N_, M_, y_.data(), y_magnitude_.data(),
                                                               product_.data(), magnitude_.data());
    project_rows<<<warps_for(rows_A, K_), threads_per_block>>>(C, rows_A, K_, M_, x_.data(), nullptr, output_.data(),
                                                               output_magnitude_.data());
    const double bound_per_magnitude = elementwise_bound(N_, 1.0, precision);
    compare_projections<<<blocks_for(product_.size()), threads_per_block>>>(
        output_.data(), output_magnitude_.data(), product_.data(), magnitude_.data(), rows_A, N_, K_,
        bound_per_magnitude, reinterpret_cast<ProjectionCounts *>(tally_.data()));
    cuda_check(cudaGetLastError(), "the projected check");
    ProjectionCounts counts;
    cuda_check(cudaMemcpy(&counts, tally_.data(), sizeof counts, cudaMemcpyDeviceToHost), "the projected check");
    ProjectionTally p;
    p.vectors = projection_vectors;
    p.rows_checked = static_cast<long long>(projection_vectors) * M_ * batch_;
    p.rows_failed = static_cast<long long>(counts.failed);
    std::memcpy(&p.worst_ratio, &counts.worst_ratio_bits, sizeof p.worst_ratio);
    if (counts.first != none) {
        const std::size_t e = counts.first, row = e % (static_cast<std::size_t>(M_) * batch_);
        p.first_failed_row = static_cast<long long>(row);
        const double difference = std::fabs(fetch(output_.data() + e) - fetch(product_.data() + e));
        p.first_difference = std::isfinite(difference) ? difference : NAN;
        p.first_bound = projection_bound(N_, K_, fetch(magnitude_.data() + row), fetch(output_magnitude_.data() + row),
                                         bound_per_magnitude);
    }
    return p;
}

SampleTally ProjectionWorkspace::sample(const float *A, const float *B, const float *C, std::uint64_t seed,
                                        Precision precision) {
    sample_elements<<<sampled_elements, sample_threads>>>(A, B, C, M_, N_, K_, batch_, seed, sample_positions_.data(),
                                                          sample_values_.data());
    cuda_check(cudaGetLastError(), "the sampled check");
    const auto positions = fetch_all(sample_positions_);
    const auto values = fetch_all(sample_values_);
    const double bound_per_magnitude = elementwise_bound(N_, 1.0, precision);
    SampleTally t;
    for (int s = 0; s < sampled_elements; ++s)
        add_sample(t, positions[2 * s], positions[2 * s + 1], static_cast<std::uint32_t>(values[3 * s + 2]),
                   values[3 * s], bound_per_magnitude * values[3 * s + 1]);
    return t;
}

} // namespace gemm
