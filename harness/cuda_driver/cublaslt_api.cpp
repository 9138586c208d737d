#include "cuda_driver/cublaslt_api.hpp"

#include "cuda_driver/library_symbols.hpp"

namespace gemm {

namespace {

// The file CMake found (GEMM_CUBLASLT_LIBRARY, an absolute path), else the loader's search.
#define GEMM_LT_TEXT_OF(x) #x
#define GEMM_LT_SONAME(major) "libcublasLt.so." GEMM_LT_TEXT_OF(major)
#ifdef GEMM_CUBLASLT_LIBRARY
constexpr const char *lt_library_file = GEMM_CUBLASLT_LIBRARY;
#else
constexpr const char *lt_library_file = GEMM_LT_SONAME(CUBLAS_VER_MAJOR);
#endif

CublasLtApi open_cublaslt() {
    const LibrarySymbols library("cuBLASLt", lt_library_file);
    CublasLtApi api{};
    library.look_up("cublasLtCreate", api.create);
    library.look_up("cublasLtDestroy", api.destroy);
    library.look_up("cublasLtMatmulDescCreate", api.matmul_desc_create);
    library.look_up("cublasLtMatmulDescDestroy", api.matmul_desc_destroy);
    library.look_up("cublasLtMatmulDescSetAttribute", api.matmul_desc_set_attribute);
    library.look_up("cublasLtMatrixLayoutCreate", api.matrix_layout_create);
    library.look_up("cublasLtMatrixLayoutDestroy", api.matrix_layout_destroy);
    library.look_up("cublasLtMatmulPreferenceCreate", api.preference_create);
    library.look_up("cublasLtMatmulPreferenceDestroy", api.preference_destroy);
    library.look_up("cublasLtMatmulPreferenceSetAttribute", api.preference_set_attribute);
    library.look_up("cublasLtMatmulAlgoGetHeuristic", api.algo_get_heuristic);
    library.look_up("cublasLtMatmul", api.matmul);
    return api;
}

} // namespace

const CublasLtApi &cublaslt_api() {
    static const CublasLtApi api = open_cublaslt();
    return api;
}

} // namespace gemm
