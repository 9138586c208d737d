#include "cuda_driver/mapped_allocation.hpp"
#include "cuda_driver/driver_api.hpp"

namespace gemm {

std::string MappedAllocation::map(CUmemGenericAllocationHandle handle, std::size_t bytes) {
    reset();
    const DriverApi &api = driver_api();
    CUdeviceptr base = 0;
    if (const CUresult r = api.mem_address_reserve(&base, bytes, 0, 0, 0); r != CUDA_SUCCESS) {
        api.mem_release(handle);
        return driver_error(r, "reserving addresses");
    }
    if (const CUresult r = api.mem_map(base, bytes, 0, handle, 0); r != CUDA_SUCCESS) {
        api.mem_address_free(base, bytes);
        api.mem_release(handle);
        return driver_error(r, "mapping");
    }
    base_ = base;
    bytes_ = bytes;
    handle_ = handle;
    CUmemAccessDesc access{};
    access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    access.location.id = 0;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    if (const CUresult r = api.mem_set_access(base, bytes, &access, 1); r != CUDA_SUCCESS) {
        reset();
        return driver_error(r, "granting access");
    }
    return "";
}

void MappedAllocation::reset() {
    if (!base_) return;
    const DriverApi &api = driver_api();
    api.mem_unmap(base_, bytes_);
    api.mem_address_free(base_, bytes_);
    api.mem_release(handle_);
    base_ = 0;
    bytes_ = 0;
    handle_ = 0;
}

} // namespace gemm
