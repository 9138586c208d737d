#include "referee/integrity_check.hpp"

namespace gemm {

namespace {

constexpr unsigned guard_word = 0xA5A5A5A5u; // GuardedBuffer::guard_byte in every byte
constexpr int threads = 256;

// tally: [0] A differs, [1] B differs, then per buffer (A, B, C) the farthest damage
// before it (floats from element 0) and after it (floats past the end); 0 is none.
enum Slot { a_differs, b_differs, damage_before, damage_after = damage_before + 3, slots = damage_after + 3 };

__global__ void count_changed(const unsigned *a, const unsigned *a0, std::size_t na, const unsigned *b,
                              const unsigned *b0, std::size_t nb, unsigned long long *tally) {
    unsigned long long da = 0, db = 0;
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < na + nb; i += stride)
        if (i < na)
            da += a[i] != a0[i];
        else
            db += b[i - na] != b0[i - na];
    if (da) atomicAdd(&tally[a_differs], da);
    if (db) atomicAdd(&tally[b_differs], db);
}

struct Guards {
    const unsigned *before[3], *after[3];
};

__global__ void inspect_guard_bands(Guards g, unsigned long long *tally) {
    const int band = blockIdx.y; // 0..5: before A, B, C, then after A, B, C
    const int buffer = band % 3;
    const bool before = band < 3;
    const unsigned *words = before ? g.before[buffer] : g.after[buffer];
    const unsigned n = GuardedBuffer::guard_floats;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        if (words[i] == guard_word) continue;
        if (before)
            atomicMax(&tally[damage_before + buffer], static_cast<unsigned long long>(n - i));
        else
            atomicMax(&tally[damage_after + buffer], static_cast<unsigned long long>(i + 1));
    }
}

const unsigned *words(const float *p) { return reinterpret_cast<const unsigned *>(p); }

} // namespace

IntegrityWorkspace::IntegrityWorkspace() : tally_(slots) {}

IntegrityCheck IntegrityWorkspace::check(const GuardedBuffer &A, const float *pristine_A, const GuardedBuffer &B,
                                         const float *pristine_B, const GuardedBuffer &C) {
    cuda_check(cudaMemsetAsync(tally_.data(), 0, slots * sizeof(unsigned long long), nullptr), "integrity check");
    const std::size_t n = A.size() + B.size();
    const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((n + threads - 1) / threads, 132 * 16));
    count_changed<<<blocks, threads>>>(words(A.data()), words(pristine_A), A.size(), words(B.data()), words(pristine_B),
                                       B.size(), tally_.data());
    Guards g{};
    const GuardedBuffer *buffers[3] = {&A, &B, &C};
    for (int b = 0; b < 3; ++b) {
        g.before[b] = words(buffers[b]->data() - GuardedBuffer::guard_floats);
        g.after[b] = words(buffers[b]->data() + buffers[b]->size());
    }
    inspect_guard_bands<<<dim3(GuardedBuffer::guard_floats / threads / 4, 6), threads>>>(g, tally_.data());
    cuda_check(cudaGetLastError(), "integrity check");
    unsigned long long t[slots];
    cuda_check(cudaMemcpy(t, tally_.data(), sizeof t, cudaMemcpyDeviceToHost), "integrity check");
    IntegrityCheck result;
    result.A_modified = t[a_differs] > 0 || t[damage_before] > 0 || t[damage_after] > 0;
    result.B_modified = t[b_differs] > 0 || t[damage_before + 1] > 0 || t[damage_after + 1] > 0;
    result.floats_written_before_C = static_cast<long long>(t[damage_before + 2]);
    result.floats_written_after_C = static_cast<long long>(t[damage_after + 2]);
    return result;
}

// The same two kernels with the input in all three places: its words against its copy, its
// guard bands three times over (a few µs; an epilogue's operands are small beside A and B).
bool IntegrityWorkspace::modified(const GuardedBuffer &input, const float *pristine) {
    return check(input, pristine, input, pristine, input).A_modified;
}

} // namespace gemm
