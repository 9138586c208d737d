#include "verification/reference.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

namespace gemm {

Reference reference_on_cpu(const std::vector<float> &A, const std::vector<float> &B, int M, int N, int K) {
    Reference ref{M, N, K, {}, {}, "cpu-fp64"};
    const std::size_t cols = static_cast<std::size_t>(K);
    ref.value.assign(static_cast<std::size_t>(M) * cols, 0.0);
    ref.magnitude.assign(ref.value.size(), 0.0);
    std::vector<double> b(B.begin(), B.end()), abs_b(B.size());
    for (std::size_t i = 0; i < B.size(); ++i) abs_b[i] = std::fabs(b[i]);
    // i-p-j order: the inner loop streams rows of B and C, which vectorizes. Rows are
    // independent, so every core takes a share of them once the work is worth a thread.
    auto rows = [&](int first, int last) {
        for (int i = first; i < last; ++i) {
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
    };
    const double work = static_cast<double>(M) * N * K;
    const int threads = work < (1 << 22) ? 1 : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> workers;
    const int share = (M + threads - 1) / threads;
    for (int first = 0; first < M; first += share) workers.emplace_back(rows, first, std::min(M, first + share));
    for (auto &w : workers) w.join();
    return ref;
}

} // namespace gemm
