#include "runner/baseline_bias_relu.hpp"

#include <cuda_runtime.h>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace gemm {

namespace {

// Enough for cuBLASLt's split-K algorithms at the judged shapes; allocated once.
constexpr std::size_t workspace_bytes = std::size_t(32) << 20;

std::uint32_t alignment_of(const void *pointer) {
    const auto address = reinterpret_cast<std::uintptr_t>(pointer);
    std::uint32_t alignment = 256;
    while (alignment > 4 && address % alignment != 0) alignment /= 2;
    return alignment;
}

} // namespace

bool BiasReluBaseline::Key::operator==(const Key &o) const {
    for (int i = 0; i < 4; ++i)
        if (alignment[i] != o.alignment[i]) return false;
    return M == o.M && N == o.N && K == o.K && a_transposed == o.a_transposed && b_transposed == o.b_transposed;
}

BiasReluBaseline::~BiasReluBaseline() {
    release_plan();
    if (workspace_) cudaFree(workspace_);
    if (handle_) cublaslt_api().destroy(handle_);
}

void BiasReluBaseline::release_plan() {
    if (!handle_) return;
    const CublasLtApi &api = cublaslt_api();
    for (cublasLtMatrixLayout_t *layout : {&a_, &b_, &c_})
        if (*layout) api.matrix_layout_destroy(std::exchange(*layout, nullptr));
    if (operation_) api.matmul_desc_destroy(std::exchange(operation_, nullptr));
    planned_.reset();
}

// Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ, as for SGEMM (cuda_backend.cpp): cuBLASLt's
// first operand is our B, its second our A, and D is K×M with leading dimension K, so the bias
// (one value per row of D) is one per column of C. Each layout describes the operand as
// stored, column-major; the transposes say how to read it.
cublasStatus_t BiasReluBaseline::plan(const Key &key, const float *bias) {
    release_plan();
    const CublasLtApi &api = cublaslt_api();
    cublasStatus_t status = api.matmul_desc_create(&operation_, CUBLAS_COMPUTE_32F, CUDA_R_32F);
    if (status != CUBLAS_STATUS_SUCCESS) return status;
    const cublasOperation_t first = key.b_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t second = key.a_transposed ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_RELU_BIAS;
    for (const auto &[attribute, value, bytes] :
         {std::tuple{CUBLASLT_MATMUL_DESC_TRANSA, static_cast<const void *>(&first), sizeof first},
          std::tuple{CUBLASLT_MATMUL_DESC_TRANSB, static_cast<const void *>(&second), sizeof second},
          std::tuple{CUBLASLT_MATMUL_DESC_EPILOGUE, static_cast<const void *>(&epilogue), sizeof epilogue},
          std::tuple{CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<const void *>(&bias), sizeof bias}})
        if ((status = api.matmul_desc_set_attribute(operation_, attribute, value, bytes)) != CUBLAS_STATUS_SUCCESS)
            return status;
    const std::uint64_t M = key.M, N = key.N, K = key.K;
    if ((status = key.b_transposed ? api.matrix_layout_create(&a_, CUDA_R_32F, N, K, N)
                                   : api.matrix_layout_create(&a_, CUDA_R_32F, K, N, K)) != CUBLAS_STATUS_SUCCESS ||
        (status = key.a_transposed ? api.matrix_layout_create(&b_, CUDA_R_32F, M, N, M)
                                   : api.matrix_layout_create(&b_, CUDA_R_32F, N, M, N)) != CUBLAS_STATUS_SUCCESS ||
        (status = api.matrix_layout_create(&c_, CUDA_R_32F, K, M, K)) != CUBLAS_STATUS_SUCCESS)
        return status;

    cublasLtMatmulPreference_t preference = nullptr;
    if ((status = api.preference_create(&preference)) != CUBLAS_STATUS_SUCCESS) return status;
    // Only algorithms that work with the operands as aligned as they are (cuBLASLt's first
    // operand is our B).
    const std::uint32_t alignments[] = {key.alignment[1], key.alignment[0], key.alignment[3], key.alignment[3]};
    const cublasLtMatmulPreferenceAttributes_t alignment_attributes[] = {
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES};
    status = api.preference_set_attribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_bytes,
                                          sizeof workspace_bytes);
    for (int i = 0; i < 4 && status == CUBLAS_STATUS_SUCCESS; ++i)
        status =
            api.preference_set_attribute(preference, alignment_attributes[i], &alignments[i], sizeof alignments[i]);
    cublasLtMatmulHeuristicResult_t found{};
    int count = 0;
    if (status == CUBLAS_STATUS_SUCCESS)
        status = api.algo_get_heuristic(handle_, operation_, a_, b_, c_, c_, preference, 1, &found, &count);
    api.preference_destroy(preference);
    if (status != CUBLAS_STATUS_SUCCESS) return status;
    if (count == 0) return CUBLAS_STATUS_NOT_SUPPORTED;
    algorithm_ = found.algo;
    planned_ = key;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t BiasReluBaseline::run(const float *A, const float *B, const float *bias, float *C, int M, int N, int K,
                                     const ProductLayout &layout) {
    if (unavailable_) return CUBLAS_STATUS_NOT_SUPPORTED;
    if (!handle_) {
        try {
            if (cublaslt_api().create(&handle_) != CUBLAS_STATUS_SUCCESS) handle_ = nullptr;
        } catch (const std::runtime_error &) {
            handle_ = nullptr; // no cuBLASLt beside cuBLAS: SGEMM and the judge's kernel instead
        }
        if (!handle_ || cudaMalloc(&workspace_, workspace_bytes) != cudaSuccess) {
            unavailable_ = true;
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
    }
    Key key;
    key.M = M, key.N = N, key.K = K;
    key.a_transposed = layout.a_transposed, key.b_transposed = layout.b_transposed;
    const void *pointers[] = {A, B, bias, C};
    for (int i = 0; i < 4; ++i) key.alignment[i] = alignment_of(pointers[i]);
    if (!planned_ || !(*planned_ == key)) {
        if (const cublasStatus_t status = plan(key, bias); status != CUBLAS_STATUS_SUCCESS) {
            release_plan();
            return CUBLAS_STATUS_NOT_SUPPORTED;
        }
    }
    const CublasLtApi &api = cublaslt_api();
    // The bias may have moved (another arena) while its alignment did not.
    if (const cublasStatus_t status =
            api.matmul_desc_set_attribute(operation_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias);
        status != CUBLAS_STATUS_SUCCESS)
        return status;
    const float one = 1, zero = 0;
    return api.matmul(handle_, operation_, &one, B, a_, A, b_, &zero, C, c_, C, c_, &algorithm_, workspace_,
                      workspace_bytes, nullptr);
}

} // namespace gemm
