#include "worker/reference_cublas.hpp"
#include "worker/cuda_check.hpp"

#include <cmath>

namespace gemm {

namespace {

void row_major_dgemm(cublasHandle_t handle, const double *A, const double *B, double *C, int M, int N, int K) {
    const double one = 1.0, zero = 0.0;
    cublas_check(cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K), "cublasDgemm");
}

// Uploads the widened values of `src`, or their absolute values.
void upload_as_double(const std::vector<float> &src, bool absolute, DeviceArray<double> &dst) {
    std::vector<double> wide(src.size());
    for (std::size_t i = 0; i < src.size(); ++i) wide[i] = absolute ? std::fabs(double(src[i])) : double(src[i]);
    cuda_check(cudaMemcpy(dst.data(), wide.data(), wide.size() * sizeof(double), cudaMemcpyHostToDevice),
               "reference upload");
}

std::vector<double> download(const DeviceArray<double> &src) {
    std::vector<double> values(src.size());
    cuda_check(cudaMemcpy(values.data(), src.data(), values.size() * sizeof(double), cudaMemcpyDeviceToHost),
               "reference download");
    return values;
}

} // namespace

void row_major_sgemm(cublasHandle_t handle, const float *A, const float *B, float *C, int M, int N, int K) {
    const float one = 1.0f, zero = 0.0f;
    cublas_check(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, K, M, N, &one, B, K, A, N, &zero, C, K), "cublasSgemm");
}

Reference reference_on_gpu(cublasHandle_t handle, const std::vector<float> &A, const std::vector<float> &B, int M,
                           int N, int K) {
    Reference ref{M, N, K, {}, {}, "cublas-dgemm"};
    DeviceArray<double> a(A.size()), b(B.size()), c(static_cast<std::size_t>(M) * K);
    upload_as_double(A, false, a);
    upload_as_double(B, false, b);
    row_major_dgemm(handle, a.data(), b.data(), c.data(), M, N, K);
    ref.value = download(c);
    upload_as_double(A, true, a);
    upload_as_double(B, true, b);
    row_major_dgemm(handle, a.data(), b.data(), c.data(), M, N, K);
    ref.magnitude = download(c);
    return ref;
}

} // namespace gemm
