// The FP64 reference: R = A·B and the magnitude |A|·|B| that scales the error bound,
// both in FP64 from the FP32 inputs. The worker computes it on the GPU with cuBLAS DGEMM
// (referee/reference_cublas.hpp); this CPU one checks a testcase's expected C, exports
// cases, and is the oracle of the CPU tests and of the GPU references' test.
#pragma once

#include <string>
#include <vector>

namespace gemm {

struct Reference {
    int M = 0, N = 0, K = 0;
    std::vector<double> value;     // (A·B)ᵢⱼ, M×K row-major
    std::vector<double> magnitude; // (|A|·|B|)ᵢⱼ
    std::string method;            // "cpu-fp64" or "cublas-dgemm"
};

Reference reference_on_cpu(const std::vector<float> &A, const std::vector<float> &B, int M, int N, int K);

} // namespace gemm
