// The operands the checks read, made from the operands the solution is handed
// (common/product_layout.hpp): a transposed operand turned back, a diagonal laid out as its
// square matrix. Exact copies of values (and zeros): the checks see the product the problem
// defines, element for element.
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

} // namespace gemm
