// How the operands a solution is handed map onto the product the referee checks: a batch of
// independent products stored one after another, an operand stored transposed (op T), A given
// as the vector of its diagonal, and the epilogue's own operands (a bias per column of C, a
// factor matrix shaped like C) and a C that is one number (a sum). The referee generates and hands out the stored
// operands and checks C against the product of the canonical ones (A M×N, B N×K, row-major, per batch); the runner
// bounds its pointers and times the baseline by the same figures.
#pragma once

#include <cstddef>

namespace gemm {

struct ProductLayout {
    long long batch = 1;        // products, each stored right after the previous one
    bool a_transposed = false;  // A stored N×M
    bool b_transposed = false;  // B stored K×N
    bool a_diagonal = false;    // A stored as its diagonal: N values (the product has M = N)
    bool bias = false;          // a bias operand: K values, one per column of C
    bool factor = false;        // a factor operand: M×K values, C's shape
    bool scalar_output = false; // C is one number (the epilogue sums the product)
    int element_bytes = 4;      // of A, B and C: 2 for fp16, 1 for int8 (an epilogue's operands are fp32)
    bool c_read = false;        // C holds C₀ before the call (C = α·A·B + β·C₀)
    bool bfloat16 = false;      // 2-byte elements are BF16 (8-bit significand), not FP16

    bool plain() const { return batch == 1 && !a_transposed && !b_transposed && !a_diagonal; }

    // Elements of each stored operand, every product of the batch included.
    std::size_t a_elements(long long M, long long N) const {
        return static_cast<std::size_t>(batch) * static_cast<std::size_t>(a_diagonal ? N : M * N);
    }
    std::size_t b_elements(long long N, long long K) const {
        return static_cast<std::size_t>(batch) * static_cast<std::size_t>(N * K);
    }
    // The product's elements, every product of the batch included.
    std::size_t product_elements(long long M, long long K) const {
        return static_cast<std::size_t>(batch) * static_cast<std::size_t>(M * K);
    }
    std::size_t c_elements(long long M, long long K) const { return scalar_output ? 1 : product_elements(M, K); }
    std::size_t bias_elements(long long K) const { return bias ? static_cast<std::size_t>(K) : 0; }
    std::size_t factor_elements(long long M, long long K) const { return factor ? product_elements(M, K) : 0; }
    // The 4-byte words `elements` of A, B or C take, which the arena and the runner count in.
    std::size_t words(std::size_t elements) const { return (elements * element_bytes + 3) / 4; }
    // The stored A's rows and columns of one product (its diagonal is one row).
    long long a_rows(long long M, long long N) const { return a_diagonal ? 1 : a_transposed ? N : M; }
    long long a_cols(long long M, long long N) const { return a_diagonal ? N : a_transposed ? M : N; }
    long long b_rows(long long N, long long K) const { return b_transposed ? K : N; }
    long long b_cols(long long N, long long K) const { return b_transposed ? N : K; }

    bool operator==(const ProductLayout &o) const {
        return batch == o.batch && a_transposed == o.a_transposed && b_transposed == o.b_transposed &&
               a_diagonal == o.a_diagonal && bias == o.bias && factor == o.factor && scalar_output == o.scalar_output &&
               element_bytes == o.element_bytes && c_read == o.c_read && bfloat16 == o.bfloat16;
    }
};

} // namespace gemm
