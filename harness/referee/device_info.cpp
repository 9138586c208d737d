#include "referee/device_info.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <optional>
#include <vector>

namespace gemm {

namespace {

// NVML is part of the driver, not the toolkit: load it at run time so the worker
// also starts on machines without a driver (and then reports "no GPU").
class Nvml {
  public:
    static Nvml &instance() {
        static Nvml nvml;
        return nvml;
    }
    bool ready() const { return device_ != nullptr; }
    void open_device(const char *pci_bus_id) {
        if (get_handle_ && get_handle_(pci_bus_id, &device_) != 0) device_ = nullptr;
    }
    int clock(int type, bool maximum) const {
        unsigned mhz = 0;
        auto query = maximum ? max_clock_ : clock_;
        return ready() && query && query(device_, type, &mhz) == 0 ? static_cast<int>(mhz) : 0;
    }
    bool slowdown() const {
        unsigned long long reasons = 0;
        if (!ready() || !event_reasons_ || event_reasons_(device_, &reasons) != 0) return false;
        return (reasons & slowdown_reasons) != 0;
    }
    // The PIDs with a compute context on the device; nullopt when NVML cannot say.
    std::optional<std::vector<pid_t>> compute_pids() const {
        const auto holders = memory_holders();
        if (!holders) return std::nullopt;
        std::vector<pid_t> pids;
        for (const auto &h : *holders) pids.push_back(h.pid);
        return pids;
    }
    std::optional<std::vector<GpuMemoryHolder>> memory_holders() const {
        if (!ready() || !compute_processes_) return std::nullopt;
        struct ProcessInfo { // nvmlProcessInfo_v2_t, which the _v3 and _v2 calls fill
            unsigned pid;
            unsigned long long used_memory;
            unsigned gpu_instance, compute_instance;
        };
        std::vector<ProcessInfo> infos(64);
        for (int attempt = 0; attempt < 3; ++attempt) {
            unsigned count = static_cast<unsigned>(infos.size());
            const int status = compute_processes_(device_, &count, infos.data());
            if (status == 7 /* NVML_ERROR_INSUFFICIENT_SIZE */) {
                infos.resize(count + 16);
                continue;
            }
            if (status != 0) return std::nullopt;
            std::vector<GpuMemoryHolder> holders;
            for (unsigned i = 0; i < count && i < infos.size(); ++i) {
                GpuMemoryHolder h;
                h.pid = static_cast<pid_t>(infos[i].pid);
                if (infos[i].used_memory != ~0ull) h.bytes = double(infos[i].used_memory); // NVML_VALUE_NOT_AVAILABLE
                holders.push_back(h);
            }
            return holders;
        }
        return std::nullopt;
    }
    std::string driver_version() const {
        char text[96] = {};
        return driver_version_ && driver_version_(text, sizeof text) == 0 ? text : "";
    }
    static constexpr int sm_clock = 1, memory_clock = 2; // nvmlClockType_t
    // nvmlClocksEventReason: HwSlowdown 0x8, SwThermalSlowdown 0x20, HwThermalSlowdown
    // 0x40, HwPowerBrakeSlowdown 0x80.
    static constexpr unsigned long long slowdown_reasons = 0x8 | 0x20 | 0x40 | 0x80;

  private:
    using Init = int (*)();
    using GetHandle = int (*)(const char *, void **);
    using GetClock = int (*)(void *, int, unsigned *);
    using GetDriverVersion = int (*)(char *, unsigned);
    using GetEventReasons = int (*)(void *, unsigned long long *);
    using GetProcesses = int (*)(void *, unsigned *, void *);

    Nvml() {
        void *library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
        if (!library) return;
        auto init = reinterpret_cast<Init>(dlsym(library, "nvmlInit_v2"));
        if (!init || init() != 0) return;
        get_handle_ = reinterpret_cast<GetHandle>(dlsym(library, "nvmlDeviceGetHandleByPciBusId_v2"));
        clock_ = reinterpret_cast<GetClock>(dlsym(library, "nvmlDeviceGetClockInfo"));
        max_clock_ = reinterpret_cast<GetClock>(dlsym(library, "nvmlDeviceGetMaxClockInfo"));
        driver_version_ = reinterpret_cast<GetDriverVersion>(dlsym(library, "nvmlSystemGetDriverVersion"));
        // The newer name first; drivers before 535 know only the older one.
        event_reasons_ = reinterpret_cast<GetEventReasons>(dlsym(library, "nvmlDeviceGetCurrentClocksEventReasons"));
        compute_processes_ = reinterpret_cast<GetProcesses>(dlsym(library, "nvmlDeviceGetComputeRunningProcesses_v3"));
        if (!compute_processes_)
            compute_processes_ =
                reinterpret_cast<GetProcesses>(dlsym(library, "nvmlDeviceGetComputeRunningProcesses_v2"));
        if (!event_reasons_)
            event_reasons_ =
                reinterpret_cast<GetEventReasons>(dlsym(library, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    }
    GetHandle get_handle_ = nullptr;
    GetClock clock_ = nullptr, max_clock_ = nullptr;
    GetDriverVersion driver_version_ = nullptr;
    GetEventReasons event_reasons_ = nullptr;
    GetProcesses compute_processes_ = nullptr;
    void *device_ = nullptr;
};

} // namespace

DeviceInfo probe_device() {
    DeviceInfo info;
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
        info.error = cudaGetErrorString(e);
        return info;
    }
    if (count == 0) {
        info.error = "no CUDA device is visible";
        return info;
    }
    cudaDeviceProp prop{};
    if (const cudaError_t e = cudaGetDeviceProperties(&prop, 0); e != cudaSuccess) {
        info.error = cudaGetErrorString(e);
        return info;
    }
    info.present = true;
    info.name = prop.name;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.sm_count = prop.multiProcessorCount;
    info.l2_bytes = prop.l2CacheSize;
    info.memory_bytes = static_cast<long long>(prop.totalGlobalMem);
    cudaDriverGetVersion(&info.cuda_driver_version);
    cudaRuntimeGetVersion(&info.cuda_runtime_version);
    char bus_id[32] = {};
    if (cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 0) == cudaSuccess) Nvml::instance().open_device(bus_id);
    const Nvml &nvml = Nvml::instance();
    info.driver_version = nvml.driver_version();
    info.sm_clock_mhz = nvml.clock(Nvml::sm_clock, false);
    info.sm_clock_max_mhz = nvml.clock(Nvml::sm_clock, true);
    info.memory_clock_mhz = nvml.clock(Nvml::memory_clock, false);
    return info;
}

int current_sm_clock_mhz() { return Nvml::instance().clock(Nvml::sm_clock, false); }

bool gpu_reports_slowdown() { return Nvml::instance().slowdown(); }

std::optional<std::vector<pid_t>> gpu_compute_pids() { return Nvml::instance().compute_pids(); }

std::optional<std::vector<GpuMemoryHolder>> gpu_memory_holders() { return Nvml::instance().memory_holders(); }

} // namespace gemm
