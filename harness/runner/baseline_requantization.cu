#include "runner/baseline_requantization.hpp"

namespace gemm {

namespace {

constexpr int requantization_threads = 256;

unsigned blocks_for(long long n) {
    const long long blocks = (n + requantization_threads - 1) / requantization_threads;
    return static_cast<unsigned>(blocks < 1 ? 1 : blocks > 65536 ? 65536 : blocks);
}

// One warp per row of A: its sum over N.
__global__ void row_sums(const signed char *A, long long M, long long N, int *sums) {
    const long long row = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32;
    if (row >= M) return;
    int sum = 0;
    for (long long j = threadIdx.x % 32; j < N; j += 32) sum += A[row * N + j];
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
    if (threadIdx.x % 32 == 0) sums[row] = sum;
}

// One thread per column of B: consecutive threads read consecutive bytes of each row.
__global__ void column_sums(const signed char *B, long long N, long long K, int *sums) {
    const long long col = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (col >= K) return;
    int sum = 0;
    for (long long i = 0; i < N; ++i) sum += B[i * K + col];
    sums[col] = sum;
}

template <typename Sum> __global__ void requantize(const Sum *sums, const int *rows, const int *cols, signed char *C,
                                                   Requantization q, long long M, long long N, long long K) {
    const long long n = M * K;
    const double both = static_cast<double>(N) * q.zero_point_A * q.zero_point_B;
    for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * blockDim.x) {
        double sum = static_cast<double>(sums[i]);
        if (rows)
            sum += both - static_cast<double>(q.zero_point_B) * rows[i / K] -
                   static_cast<double>(q.zero_point_A) * cols[i % K];
        C[i] = static_cast<signed char>(q.output(sum));
    }
}

} // namespace

template <typename Sum>
cudaError_t apply_baseline_requantization(const Sum *sums, const signed char *A, const signed char *B, signed char *C,
                                          int *lines, const Requantization &q, long long M, long long N, long long K) {
    const bool shifted = q.zero_point_A != 0 || q.zero_point_B != 0;
    if (shifted) {
        row_sums<<<blocks_for(M * 32), requantization_threads>>>(A, M, N, lines);
        column_sums<<<blocks_for(K), requantization_threads>>>(B, N, K, lines + M);
    }
    requantize<Sum><<<blocks_for(M * K), requantization_threads>>>(sums, shifted ? lines : nullptr,
                                                                   shifted ? lines + M : nullptr, C, q, M, N, K);
    return cudaGetLastError();
}

template cudaError_t apply_baseline_requantization<int>(const int *, const signed char *, const signed char *,
                                                        signed char *, int *, const Requantization &, long long,
                                                        long long, long long);
template cudaError_t apply_baseline_requantization<float>(const float *, const signed char *, const signed char *,
                                                          signed char *, int *, const Requantization &, long long,
                                                          long long, long long);

} // namespace gemm
