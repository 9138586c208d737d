// expect: WA
// cases: secret/05-primes
// detail: output of timed call 1
// flags: --problem tensara/matmul-3d
// Tensara's 3-D tensor times a matrix, computed on the first call of each shape and
// replayed after: a kernel that caches its answer by the shape. The judge makes fresh
// inputs for every call, so the first timed call's output is the checked call's: WA.
#include "naive_kernel.cuh"

#include <cstddef>
#include <map>
#include <tuple>

extern "C" void solution(const float *A, const float *B, float *C, size_t n, size_t m, size_t k, size_t l) {
    static std::map<std::tuple<size_t, size_t, size_t, size_t>, float *> answers;
    const size_t bytes = sizeof(float) * n * m * l;
    float *&answer = answers[{n, m, k, l}];
    if (answer == nullptr) {
        // The n·m rows of A, each of k, times B (k×l): one flattened product.
        launch_naive(A, B, C, static_cast<int>(n * m), static_cast<int>(k), static_cast<int>(l));
        cudaMalloc(&answer, bytes);
        cudaMemcpy(answer, C, bytes, cudaMemcpyDeviceToDevice);
    } else {
        cudaMemcpy(C, answer, bytes, cudaMemcpyDeviceToDevice);
    }
    cudaDeviceSynchronize();
}
