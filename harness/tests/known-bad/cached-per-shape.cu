// expect: WA
// cases: secret/04-primes
// detail: output of timed call 1
// Computes the first call of each shape, then replays that answer: fast, and wrong
// as soon as the inputs change.
#include "naive_kernel.cuh"

#include <map>
#include <tuple>
#include <vector>

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    static std::map<std::tuple<int, int, int>, std::vector<float>> answers;
    auto &answer = answers[{M, N, K}];
    const size_t bytes = sizeof(float) * M * K;
    if (answer.empty()) {
        launch_naive(A, B, C, M, N, K);
        answer.resize((size_t)M * K);
        cudaMemcpy(answer.data(), C, bytes, cudaMemcpyDeviceToHost);
    } else {
        cudaMemcpy(C, answer.data(), bytes, cudaMemcpyHostToDevice);
    }
    cudaDeviceSynchronize();
}
