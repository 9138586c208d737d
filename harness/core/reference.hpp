// The FP64 reference: R = A·B and the magnitude |A|·|B| that scales the error bound,
// both from the same FP32 inputs the solution gets, computed before solve() runs.
// Small problems use the CPU (here); large ones cuBLAS DGEMM (reference_cublas.hpp).
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

// Up to 2²⁶ multiply-adds the CPU answers in well under a second; past that the GPU.
bool cpu_reference_is_cheap(int M, int N, int K);

Reference reference_on_cpu(const std::vector<float> &A, const std::vector<float> &B, int M, int N, int K);

} // namespace gemm
