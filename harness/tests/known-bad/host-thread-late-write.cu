// expect: WA
// cases: secret/16-around-2048
// detail: never written
// Returns at once and leaves a host thread to compute C a few milliseconds later, so
// the call looks nearly free. The output is verified the moment solve() returns and the
// device is idle: C still holds the poison.
#include "naive_kernel.cuh"

#include <chrono>
#include <thread>

extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {
    std::thread([=] {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        launch_naive(A, B, C, M, N, K);
        cudaDeviceSynchronize();
    }).detach();
}
