// cuBLAS opened on first use rather than linked. A process linked to libcublas pays its
// initialisers at every start (about 0.45 CPU-seconds on the 2-core CI machine, measured by
// timing a program that only links it): the referee, its device probe and both runners
// start for every judged solution, with or without a GPU, and most never call cuBLAS
// before the first case. The header gives cuBLAS's types; the calls go through here.
#pragma once

#include <cublas_v2.h>

#include <string>

namespace gemm {

struct CublasApi {
    cublasStatus_t (*create)(cublasHandle_t *);
    cublasStatus_t (*destroy)(cublasHandle_t);
    cublasStatus_t (*set_math_mode)(cublasHandle_t, cublasMath_t);
    cublasStatus_t (*sgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float *,
                            const float *, int, const float *, int, const float *, float *, int);
    cublasStatus_t (*dgemm)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const double *,
                            const double *, int, const double *, int, const double *, double *, int);
    cublasStatus_t (*sgemm_strided_batched)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                            const float *, const float *, int, long long, const float *, int, long long,
                                            const float *, float *, int, long long, int);
    cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void *,
                              const void *, cudaDataType, int, const void *, cudaDataType, int, const void *, void *,
                              cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t);
    cublasStatus_t (*gemm_strided_batched_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                                              const void *, const void *, cudaDataType, int, long long, const void *,
                                              cudaDataType, int, long long, const void *, void *, cudaDataType, int,
                                              long long, int, cublasComputeType_t, cublasGemmAlgo_t);
    cublasStatus_t (*sgemv)(cublasHandle_t, cublasOperation_t, int, int, const float *, const float *, int,
                            const float *, int, const float *, float *, int);
    cublasStatus_t (*sdgmm)(cublasHandle_t, cublasSideMode_t, int, int, const float *, int, const float *, int, float *,
                            int);
};

// The entry points, looked up once; throws std::runtime_error naming the library and what
// the loader said when it cannot be opened or lacks one of them.
const CublasApi &cublas_api();

} // namespace gemm
