#include "referee/reference_cublas.hpp"
#include "cuda_driver/cublas_api.hpp"
#include "referee/device_check.hpp"

namespace gemm {

namespace {

void row_major_dgemm(cublasHandle_t handle, const double *A, const double *B, double *C, int M, int N, int K) {
    const double one = 1.0, zero = 0.0;
    cublas_check(cublas_api().dgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K),
                 "cublasDgemm");
}

} // namespace

DeviceReference::DeviceReference(int M, int N, int K, long long batch)
    : M(M), N(N), K(K), batch(batch), value(std::size_t(M) * K * batch), magnitude(std::size_t(M) * K * batch) {}

void compute_reference(cublasHandle_t handle, const float *A, const float *B, DeviceReference &ref) {
    // Pedantic: no reduced-precision or emulated shortcut may touch the reference.
    cublas_check(cublas_api().set_math_mode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    const std::size_t a_size = std::size_t(ref.M) * ref.N, b_size = std::size_t(ref.N) * ref.K,
                      c_size = std::size_t(ref.M) * ref.K;
    DeviceArray<double> a(a_size * ref.batch), b(b_size * ref.batch);
    for (bool absolute : {false, true}) {
        widen_on_device(A, a.size(), absolute, a.data());
        widen_on_device(B, b.size(), absolute, b.data());
        double *out = absolute ? ref.magnitude.data() : ref.value.data();
        // One DGEMM per product: the batches here are few or small, and the reference is made
        // once per case.
        for (long long i = 0; i < ref.batch; ++i)
            row_major_dgemm(handle, a.data() + i * a_size, b.data() + i * b_size, out + i * c_size, ref.M, ref.N,
                            ref.K);
    }
}

} // namespace gemm
