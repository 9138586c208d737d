#include "core/reference.hpp"

#include <cmath>

namespace gemm {

bool cpu_reference_is_cheap(int M, int N, int K) {
    return static_cast<double>(M) * N * K <= static_cast<double>(1 << 26);
}

Reference reference_on_cpu(const std::vector<float> &A, const std::vector<float> &B, int M, int N, int K) {
    Reference ref{M, N, K, {}, {}, "cpu-fp64"};
    const std::size_t cols = static_cast<std::size_t>(K);
    ref.value.assign(static_cast<std::size_t>(M) * cols, 0.0);
    ref.magnitude.assign(ref.value.size(), 0.0);
    std::vector<double> b(B.begin(), B.end()), abs_b(B.size());
    for (std::size_t i = 0; i < B.size(); ++i) abs_b[i] = std::fabs(b[i]);
    // i-p-j order: the inner loop streams rows of B and C, which vectorizes.
    for (int i = 0; i < M; ++i) {
        double *r = &ref.value[i * cols];
        double *s = &ref.magnitude[i * cols];
        for (int p = 0; p < N; ++p) {
            const double a = A[static_cast<std::size_t>(i) * N + p];
            const double abs_a = std::fabs(a);
            const double *b_row = &b[static_cast<std::size_t>(p) * cols];
            const double *abs_b_row = &abs_b[static_cast<std::size_t>(p) * cols];
            for (std::size_t j = 0; j < cols; ++j) {
                r[j] += a * b_row[j];
                s[j] += abs_a * abs_b_row[j];
            }
        }
    }
    return ref;
}

} // namespace gemm
