// The baseline of a product followed by + bias and ReLU (Tensara gemm-relu), as its
// descriptor names it: one cublasLtMatmul with the RELU_BIAS epilogue, C = max(0, A·op(B) +
// bias), computed in FP32 (CUBLAS_COMPUTE_32F, never TF32), so cuBLAS saves the pass over C
// that SGEMM and the judge's own epilogue kernel make. The plan (descriptors, layouts, the
// heuristic's algorithm) is made on the first call of a shape, a warm-up call, and kept.
#pragma once

#include "common/product_layout.hpp"
#include "cuda_driver/cublaslt_api.hpp"

#include <cstdint>
#include <optional>

namespace gemm {

class BiasReluBaseline {
  public:
    BiasReluBaseline() = default;
    BiasReluBaseline(const BiasReluBaseline &) = delete;
    BiasReluBaseline &operator=(const BiasReluBaseline &) = delete;
    ~BiasReluBaseline();
    // C (M×K) = max(0, A·B + bias) for one product, A M×N and B N×K as `layout` stores them
    // (transposes, no diagonal, no batch). CUBLAS_STATUS_NOT_SUPPORTED where cuBLASLt cannot
    // be opened or has no algorithm for the shape: the caller then times SGEMM and its own
    // epilogue kernel instead.
    cublasStatus_t run(const float *A, const float *B, const float *bias, float *C, int M, int N, int K,
                       const ProductLayout &layout);

  private:
    // What the plan depends on: the shape, the transposes, and the operands' alignment,
    // which decides the algorithms cuBLASLt may choose.
    struct Key {
        int M = 0, N = 0, K = 0;
        bool a_transposed = false, b_transposed = false;
        std::uint32_t alignment[4] = {}; // A, B, bias, C in bytes, at most 256
        bool operator==(const Key &o) const;
    };
    cublasStatus_t plan(const Key &key, const float *bias);
    void release_plan();

    cublasLtHandle_t handle_ = nullptr;
    void *workspace_ = nullptr;
    cublasLtMatmulDesc_t operation_ = nullptr;
    cublasLtMatrixLayout_t a_ = nullptr, b_ = nullptr, c_ = nullptr;
    cublasLtMatmulAlgo_t algorithm_{};
    std::optional<Key> planned_;
    bool unavailable_ = false; // cuBLASLt could not be opened: not tried again
};

} // namespace gemm
