// cuBLASLt opened on first use rather than linked, for the reason cublas_api.hpp gives: only
// the baseline runner calls it, and only for a problem whose baseline is a cuBLASLt epilogue.
// The header gives cuBLASLt's types; the calls go through here.
#pragma once

#include <cublasLt.h>

namespace gemm {

struct CublasLtApi {
    cublasStatus_t (*create)(cublasLtHandle_t *);
    cublasStatus_t (*destroy)(cublasLtHandle_t);
    cublasStatus_t (*matmul_desc_create)(cublasLtMatmulDesc_t *, cublasComputeType_t, cudaDataType_t);
    cublasStatus_t (*matmul_desc_destroy)(cublasLtMatmulDesc_t);
    cublasStatus_t (*matmul_desc_set_attribute)(cublasLtMatmulDesc_t, cublasLtMatmulDescAttributes_t, const void *,
                                                size_t);
    cublasStatus_t (*matrix_layout_create)(cublasLtMatrixLayout_t *, cudaDataType, uint64_t, uint64_t, int64_t);
    cublasStatus_t (*matrix_layout_destroy)(cublasLtMatrixLayout_t);
    cublasStatus_t (*preference_create)(cublasLtMatmulPreference_t *);
    cublasStatus_t (*preference_destroy)(cublasLtMatmulPreference_t);
    cublasStatus_t (*preference_set_attribute)(cublasLtMatmulPreference_t, cublasLtMatmulPreferenceAttributes_t,
                                               const void *, size_t);
    cublasStatus_t (*algo_get_heuristic)(cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
                                         cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
                                         cublasLtMatmulPreference_t, int, cublasLtMatmulHeuristicResult_t[], int *);
    cublasStatus_t (*matmul)(cublasLtHandle_t, cublasLtMatmulDesc_t, const void *, const void *, cublasLtMatrixLayout_t,
                             const void *, cublasLtMatrixLayout_t, const void *, const void *, cublasLtMatrixLayout_t,
                             void *, cublasLtMatrixLayout_t, const cublasLtMatmulAlgo_t *, void *, size_t,
                             cudaStream_t);
};

// The entry points, looked up once; throws std::runtime_error naming the library and what
// the loader said when it cannot be opened or lacks one of them.
const CublasLtApi &cublaslt_api();

} // namespace gemm
