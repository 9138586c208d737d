// The operands the checks read, made from the operands the solution is handed
// (common/product_layout.hpp): a transposed operand turned back, a diagonal laid out as its
// square matrix, FP16 and int8 values as floats. Exact copies of values (and zeros): the checks see the product the
// problem defines, element for element.
#pragma once

#include <cstddef>

namespace gemm {

// `batch` row-major rows×cols matrices → their transposes (cols×rows each), one after another.
void transpose_on_device(const float *stored, long long batch, long long rows, long long cols, float *transposed);

// `batch` vectors of n values → n×n matrices with them on the diagonal and zeros elsewhere.
void diagonal_on_device(const float *diagonal, long long batch, long long n, float *square);

// How many of n values are not zero (a negative zero is a zero): what a sparse problem's
// entry point is told as nnz.
long long count_nonzero_on_device(const float *values, std::size_t n);

// Generated floats rounded to FP16, or BF16 where `bfloat16`, in place (so they hold exactly
// what the solution is handed) and packed as 2-byte floats into `packed` (n of them).
void round_to_half_on_device(float *values, std::size_t n, void *packed, bool bfloat16 = false);

// n FP16 (or BF16) values as floats, exactly; the poison (0xFFFF, a NaN in both: never
// written) becomes the FP32 poison, so the check tells unwritten elements apart as it does for
// an FP32 C.
void widen_half_on_device(const void *packed, std::size_t n, float *wide, bool bfloat16 = false);

// Generated integers packed as int8 into `packed` (n bytes), and left in `values` less the
// zero point: what the checks multiply, A − zero_point_A (or B's), exactly.
void round_to_int8_on_device(float *values, std::size_t n, int zero_point, void *packed);

// n int8 values as floats, exactly. Every byte is a value an int8 output may hold, so no
// poison tells an unwritten element: the exact check finds it where it differs.
void widen_int8_on_device(const void *packed, std::size_t n, float *wide);

} // namespace gemm
