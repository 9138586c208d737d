// CUDA and cuBLAS status → exception, so every call's result is checked and a failure
// names the call that saw it.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace gemm {

struct CudaFailure : std::runtime_error {
    CudaFailure(cudaError_t code, const std::string &what)
        : std::runtime_error(what + ": " + cudaGetErrorString(code)), code(code) {}
    cudaError_t code;
};

// The device had not the memory an allocation of the referee's asked for: whose fault that
// is, the solution's process's or the judge's, is decided from who holds it
// (CaseReferee::blame_out_of_memory, verification/memory_blame.hpp), never assumed.
struct OutOfDeviceMemory : std::runtime_error {
    using std::runtime_error::runtime_error;
};

inline void cuda_check(cudaError_t code, const char *what) {
    if (code == cudaErrorMemoryAllocation) {
        cudaGetLastError(); // not sticky: clear it, the referee goes on
        throw OutOfDeviceMemory(std::string(what) + ": " + cudaGetErrorString(code));
    }
    if (code != cudaSuccess) throw CudaFailure(code, what);
}

inline void cublas_check(cublasStatus_t status, const char *what) {
    if (status == CUBLAS_STATUS_ALLOC_FAILED)
        throw OutOfDeviceMemory(std::string(what) + ": cuBLAS could not allocate");
    if (status != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(static_cast<int>(status)));
}

// Owning device allocation of n elements.
template <typename T> class DeviceArray {
  public:
    explicit DeviceArray(std::size_t n) : size_(n) {
        cuda_check(cudaMalloc(reinterpret_cast<void **>(&data_), n * sizeof(T)), "cudaMalloc");
    }
    ~DeviceArray() { cudaFree(data_); }
    DeviceArray(DeviceArray &&other) noexcept : data_(other.data_), size_(other.size_) {
        other.data_ = nullptr;
        other.size_ = 0;
    }
    DeviceArray(const DeviceArray &) = delete;
    DeviceArray &operator=(const DeviceArray &) = delete;
    T *data() const { return data_; }
    std::size_t size() const { return size_; }

  private:
    T *data_ = nullptr;
    std::size_t size_;
};

} // namespace gemm
