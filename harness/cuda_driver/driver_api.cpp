#include "cuda_driver/driver_api.hpp"

#include <cuda_runtime.h>
#include <stdexcept>

namespace gemm {

namespace {

template <typename Function> void look_up(const char *symbol, Function &function) {
    void *address = nullptr;
    cudaDriverEntryPointQueryResult found{};
    // 12.0: the versions of these calls every driver this judge supports has.
    if (cudaGetDriverEntryPointByVersion(symbol, &address, 12000, cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess || !address)
        throw std::runtime_error(std::string("the CUDA driver has no ") + symbol);
    function = reinterpret_cast<Function>(address);
}

DriverApi load() {
    DriverApi api{};
    look_up("cuMemCreate", api.mem_create);
    look_up("cuMemRelease", api.mem_release);
    look_up("cuMemGetAllocationGranularity", api.mem_get_allocation_granularity);
    look_up("cuMemAddressReserve", api.mem_address_reserve);
    look_up("cuMemAddressFree", api.mem_address_free);
    look_up("cuMemMap", api.mem_map);
    look_up("cuMemUnmap", api.mem_unmap);
    look_up("cuMemSetAccess", api.mem_set_access);
    look_up("cuMemExportToShareableHandle", api.mem_export_to_shareable_handle);
    look_up("cuMemImportFromShareableHandle", api.mem_import_from_shareable_handle);
    look_up("cuGetErrorString", api.get_error_string);
    look_up("cuCtxGetCurrent", api.ctx_get_current);
    look_up("cuCtxGetId", api.ctx_get_id);
    return api;
}

} // namespace

const DriverApi &driver_api() {
    static const DriverApi api = load();
    return api;
}

std::string driver_error(CUresult code, const char *what) {
    const char *text = nullptr;
    driver_api().get_error_string(code, &text);
    return std::string(what) + ": " + (text ? text : "CUDA driver error " + std::to_string(int(code)));
}

} // namespace gemm
