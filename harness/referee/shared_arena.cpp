#include "referee/shared_arena.hpp"
#include "cuda_driver/driver_api.hpp"
#include "referee/cuda_check.hpp"

#include <stdexcept>
#include <string>

namespace gemm {

namespace {

void driver_check(CUresult code, const char *what) {
    if (code == CUDA_ERROR_OUT_OF_MEMORY) throw OutOfDeviceMemory(driver_error(code, what));
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

bool SharedArena::reserve(std::size_t bytes) {
    if (bytes <= mapping_.bytes()) return false;
    mapping_.reset();
    CUmemAllocationProp prop = exportable_device_memory();
    std::size_t granularity = 0;
    driver_check(driver_api().mem_get_allocation_granularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED),
                 "cuMemGetAllocationGranularity");
    // A little headroom, so a run of growing shapes does not reallocate at every case.
    bytes = bytes + bytes / 8;
    bytes = (bytes + granularity - 1) / granularity * granularity;
    CUmemGenericAllocationHandle handle = 0;
    driver_check(driver_api().mem_create(&handle, bytes, &prop, 0), "cuMemCreate (the solution's GPU memory)");
    if (const std::string why = mapping_.map(handle, bytes); !why.empty()) {
        if (why.find("out of memory") != std::string::npos)
            throw OutOfDeviceMemory("the solution's GPU memory: " + why);
        throw std::runtime_error("the solution's GPU memory: " + why);
    }
    return true;
}

void SharedArena::release() { mapping_.reset(); }

int SharedArena::export_descriptor() const {
    int fd = -1;
    driver_check(driver_api().mem_export_to_shareable_handle(&fd, mapping_.handle(),
                                                             CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0),
                 "cuMemExportToShareableHandle");
    return fd;
}

} // namespace gemm
