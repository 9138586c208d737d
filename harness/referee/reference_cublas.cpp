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

DeviceReference::DeviceReference(int M, int N, int K)
    : M(M), N(N), K(K), value(std::size_t(M) * K), magnitude(std::size_t(M) * K) {}

void compute_reference(cublasHandle_t handle, const float *A, const float *B, DeviceReference &ref) {
    // Pedantic: no reduced-precision or emulated shortcut may touch the reference.
    cublas_check(cublas_api().set_math_mode(handle, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
    const std::size_t a_size = std::size_t(ref.M) * ref.N, b_size = std::size_t(ref.N) * ref.K;
    DeviceArray<double> a(a_size), b(b_size);
    for (bool absolute : {false, true}) {
        widen_on_device(A, a_size, absolute, a.data());
        widen_on_device(B, b_size, absolute, b.data());
        row_major_dgemm(handle, a.data(), b.data(), absolute ? ref.magnitude.data() : ref.value.data(), ref.M, ref.N,
                        ref.K);
    }
}

} // namespace gemm
