// The CUDA driver's virtual-memory calls (cuMemCreate, cuMemMap, the descriptor export
// and import) and the current context's identity, reached through the runtime rather than linked: a program linked to
// libcuda cannot even start on a machine without the driver, and the referee and the
// runner must start there to say "no GPU" and to find a missing solve().
#pragma once

#include <cuda.h>

#include <string>

namespace gemm {

struct DriverApi {
    CUresult (*mem_create)(CUmemGenericAllocationHandle *, size_t, const CUmemAllocationProp *, unsigned long long);
    CUresult (*mem_release)(CUmemGenericAllocationHandle);
    CUresult (*mem_get_allocation_granularity)(size_t *, const CUmemAllocationProp *, CUmemAllocationGranularity_flags);
    CUresult (*mem_address_reserve)(CUdeviceptr *, size_t, size_t, CUdeviceptr, unsigned long long);
    CUresult (*mem_address_free)(CUdeviceptr, size_t);
    CUresult (*mem_map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    CUresult (*mem_unmap)(CUdeviceptr, size_t);
    CUresult (*mem_set_access)(CUdeviceptr, size_t, const CUmemAccessDesc *, size_t);
    CUresult (*mem_export_to_shareable_handle)(void *, CUmemGenericAllocationHandle, CUmemAllocationHandleType,
                                               unsigned long long);
    CUresult (*mem_import_from_shareable_handle)(CUmemGenericAllocationHandle *, void *, CUmemAllocationHandleType);
    CUresult (*get_error_string)(CUresult, const char **);
    CUresult (*ctx_get_current)(CUcontext *);
    CUresult (*ctx_get_id)(CUcontext, unsigned long long *);
};

// The entry points, looked up once (after the runtime has a context); throws
// std::runtime_error naming one the driver does not offer.
const DriverApi &driver_api();

// "cuMemMap: out of memory".
std::string driver_error(CUresult code, const char *what);

} // namespace gemm
