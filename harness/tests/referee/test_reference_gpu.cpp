// The two FP64 references agree: the CPU one for small cases and cuBLAS DGEMM for
// large ones must be interchangeable, or a case's verdict would depend on its size.
#include "common/rng.hpp"
#include "cuda_driver/cublas_api.hpp"
#include "judging/os/gpu_turn.hpp"
#include "referee/device_info.hpp"
#include "referee/reference_cublas.hpp"
#include "verification/reference.hpp"

#include <cmath>
#include <cstdio>
#include <doctest/doctest.h>

using namespace gemm;

TEST_CASE("the CPU and cuBLAS FP64 references agree to FP64 rounding") {
    GpuTurn::for_this_judge(); // in turn with the judges other tests start (judging/os/gpu_turn.hpp)
    if (!probe_device().present) {
        std::printf("[skipped: no GPU]\n");
        return;
    }
    const int M = 193, N = 517, K = 211;
    GeneratorSpec spec;
    spec.seed = 77;
    const auto A = generate_matrix(spec, 0, MatrixId::A, M, N);
    const auto B = generate_matrix(spec, 0, MatrixId::B, N, K);
    cublasHandle_t handle;
    REQUIRE(cublas_api().create(&handle) == CUBLAS_STATUS_SUCCESS);
    DeviceArray<float> a(A.size()), b(B.size());
    cuda_check(cudaMemcpy(a.data(), A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
    cuda_check(cudaMemcpy(b.data(), B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice), "upload");
    DeviceReference device(M, N, K);
    compute_reference(handle, a.data(), b.data(), device);
    cublas_api().destroy(handle);
    Reference gpu{M, N, K, std::vector<double>(device.value.size()), std::vector<double>(device.value.size()), ""};
    cuda_check(
        cudaMemcpy(gpu.value.data(), device.value.data(), gpu.value.size() * sizeof(double), cudaMemcpyDeviceToHost),
        "download");
    cuda_check(cudaMemcpy(gpu.magnitude.data(), device.magnitude.data(), gpu.magnitude.size() * sizeof(double),
                          cudaMemcpyDeviceToHost),
               "download");
    const Reference cpu = reference_on_cpu(A, B, M, N, K);
    REQUIRE(gpu.value.size() == cpu.value.size());
    // Any two FP64 summation orders differ by at most 2·γ_N(FP64)·(|A||B|)ᵢⱼ.
    const double gamma64 = N * 0x1p-53 / (1 - N * 0x1p-53);
    double worst = 0;
    for (std::size_t i = 0; i < cpu.value.size(); ++i) {
        worst = std::max(worst, std::fabs(cpu.value[i] - gpu.value[i]) / (2 * gamma64 * cpu.magnitude[i]));
        REQUIRE(std::fabs(cpu.magnitude[i] - gpu.magnitude[i]) <= 2 * gamma64 * cpu.magnitude[i]);
    }
    MESSAGE("largest CPU/GPU difference in units of the FP64 bound: " << worst);
    CHECK(worst <= 1.0);
}
