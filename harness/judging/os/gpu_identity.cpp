#include "judging/os/gpu_identity.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace gemm {

namespace fs = std::filesystem;

namespace {

std::string trimmed(const std::string &text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

// The first device CUDA_VISIBLE_DEVICES names: CUDA reads the list up to its first comma.
std::string first_entry(const char *visible_devices) {
    const std::string list = visible_devices;
    return trimmed(list.substr(0, list.find(',')));
}

bool is_index(const std::string &entry) {
    return !entry.empty() && entry.size() < 4 && entry.find_first_not_of("0123456789") == std::string::npos;
}

} // namespace

std::vector<ListedGpu> listed_gpus_in(const std::string &folder) {
    std::vector<ListedGpu> gpus;
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(folder, ec)) {
        std::ifstream information(entry.path() / "information");
        ListedGpu gpu;
        gpu.bus_id = entry.path().filename().string();
        for (std::string line; std::getline(information, line);) {
            const auto colon = line.find(':');
            if (colon == std::string::npos) continue;
            const std::string key = trimmed(line.substr(0, colon)), value = trimmed(line.substr(colon + 1));
            if (key == "GPU UUID") gpu.uuid = value;
            if (key == "Model") gpu.model = value;
        }
        if (!gpu.uuid.empty()) gpus.push_back(gpu);
    }
    std::sort(gpus.begin(), gpus.end(), [](const auto &a, const auto &b) { return a.bus_id < b.bus_id; });
    return gpus;
}

std::vector<ListedGpu> listed_gpus() {
    const char *folder = std::getenv("GEMM_JUDGE_NVIDIA_GPUS_DIR");
    return listed_gpus_in(folder && *folder ? folder : "/proc/driver/nvidia/gpus");
}

bool no_gpu_visible(const char *visible_devices) {
    if (!visible_devices) return false;
    const std::string entry = first_entry(visible_devices);
    return !(is_index(entry) || entry.rfind("GPU-", 0) == 0 || entry.rfind("MIG-", 0) == 0);
}

std::optional<std::string> gpu_in_use(const char *visible_devices, const char *device_order,
                                      const std::vector<ListedGpu> &gpus) {
    const std::string entry = visible_devices ? first_entry(visible_devices) : "0";
    if (entry.rfind("MIG-", 0) == 0) return entry;
    if (entry.rfind("GPU-", 0) == 0) {
        // CUDA takes a unique prefix of a UUID too: the listing completes it where it can.
        std::optional<std::string> match;
        for (const auto &gpu : gpus)
            if (gpu.uuid.rfind(entry, 0) == 0) {
                if (match) return std::nullopt; // ambiguous: CUDA refuses it as well
                match = gpu.uuid;
            }
        return match ? match : std::optional<std::string>(entry);
    }
    if (!is_index(entry)) return std::nullopt;
    const std::size_t index = std::stoul(entry);
    if (index >= gpus.size()) return std::nullopt;
    const bool bus_order = device_order && std::string(device_order) == "PCI_BUS_ID";
    const bool one_model =
        std::all_of(gpus.begin(), gpus.end(), [&](const auto &g) { return g.model == gpus[0].model; });
    if (!bus_order && !one_model) return std::nullopt;
    return gpus[index].uuid;
}

} // namespace gemm
