// expect: WA
// cases: secret/02-prime
// flags: --problem tensara/lower-trig-matmul
// A right product of the two lower triangular inputs, then 0.5 written into every element
// above the diagonal. Tensara's problem asks for exact zeros there, and the judge's bound
// there is 0 (every term of |A|·|B| above the diagonal has a zero factor), so any non-zero
// is infinitely over it: WA on the first call, whatever the rest holds.
#include "naive_kernel.cuh"

#include <cstddef>

namespace {

__global__ void fill_above_diagonal(float *C, int n) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n && col > row) C[(size_t)row * n + col] = 0.5f;
}

} // namespace

extern "C" void solution(const float *input_a, const float *input_b, float *output_c, size_t n) {
    const int size = static_cast<int>(n);
    launch_naive(input_a, input_b, output_c, size, size, size);
    fill_above_diagonal<<<dim3((size + 15) / 16, (size + 15) / 16), dim3(16, 16)>>>(output_c, size);
    cudaDeviceSynchronize();
}
