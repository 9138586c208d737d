#include "referee/shared_arena.hpp"
#include "cuda_driver/driver_api.hpp"

#include <stdexcept>
#include <string>

namespace gemm {

namespace {

void driver_check(CUresult code, const char *what) {
    if (code != CUDA_SUCCESS) throw std::runtime_error(driver_error(code, what));
}

CUmemAllocationProp exportable_device_memory() {
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    return prop;
}

} // namespace

SharedArena::~SharedArena() { release(); }

void SharedArena::release() {
    if (!base_) return;
    driver_api().mem_unmap(base_, bytes_);
    driver_api().mem_address_free(base_, bytes_);
    driver_api().mem_release(handle_);
    base_ = 0;
    bytes_ = 0;
}

bool SharedArena::reserve(std::size_t bytes) {
    if (bytes <= bytes_) return false;
    release();
    CUmemAllocationProp prop = exportable_device_memory();
    std::size_t granularity = 0;
    driver_check(driver_api().mem_get_allocation_granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
                 "cuMemGetAllocationGranularity");
    // A little headroom, so a run of growing shapes does not reallocate at every case.
    bytes = bytes + bytes / 8;
    bytes = (bytes + granularity - 1) / granularity * granularity;
    driver_check(driver_api().mem_create(&handle_, bytes, &prop, 0), "cuMemCreate (the solution's GPU memory)");
    if (const CUresult r = driver_api().mem_address_reserve(&base_, bytes, 0, 0, 0); r != CUDA_SUCCESS) {
        driver_api().mem_release(handle_);
        driver_check(r, "cuMemAddressReserve");
    }
    if (const CUresult r = driver_api().mem_map(base_, bytes, 0, handle_, 0); r != CUDA_SUCCESS) {
        driver_api().mem_address_free(base_, bytes);
        driver_api().mem_release(handle_);
        base_ = 0;
        driver_check(r, "cuMemMap");
    }
    bytes_ = bytes;
    CUmemAccessDesc access{};
    access.location = prop.location;
    access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    driver_check(driver_api().mem_set_access(base_, bytes_, &access, 1), "cuMemSetAccess");
    return true;
}

int SharedArena::export_descriptor() const {
    int fd = -1;
    driver_check(driver_api().mem_export_to_shareable_handle(&fd, handle_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                 "cuMemExportToShareableHandle");
    return fd;
}

} // namespace gemm
