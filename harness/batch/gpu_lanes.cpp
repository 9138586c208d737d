#include "batch/gpu_lanes.hpp"
#include "common/errors.hpp"
#include "compile/gpu_target.hpp"
#include "judging/os/gpu_identity.hpp"
#include "judging/os/process.hpp"

#include <algorithm>
#include <sstream>

namespace gemm::batch {

namespace {

std::string trimmed(const std::string &text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::vector<std::string> split(const std::string &text, char separator) {
    std::vector<std::string> parts;
    std::istringstream in(text);
    for (std::string part; std::getline(in, part, separator);) parts.push_back(trimmed(part));
    return parts;
}

std::optional<std::string> target_of(const ListedDevice &device) {
    const auto dot = device.compute_capability.find('.');
    if (dot == std::string::npos) return std::nullopt;
    try {
        return default_target(std::stoi(device.compute_capability.substr(0, dot)),
                              std::stoi(device.compute_capability.substr(dot + 1)));
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

// The lanes this process could have: one per GPU it may use.
std::vector<GpuLane> available_lanes(const char *visible_devices, const std::vector<ListedDevice> &devices) {
    std::vector<GpuLane> lanes;
    if (visible_devices) {
        if (no_gpu_visible(visible_devices)) return lanes;
        for (const auto &entry : split(visible_devices, ',')) {
            if (entry.empty()) break; // CUDA reads no further
            const auto device = std::find_if(devices.begin(), devices.end(), [&](const ListedDevice &d) {
                return d.index == entry || (entry.rfind("GPU-", 0) == 0 && d.uuid.rfind(entry, 0) == 0);
            });
            lanes.push_back(
                {std::to_string(lanes.size()), entry, device == devices.end() ? std::nullopt : target_of(*device)});
        }
        return lanes;
    }
    for (const auto &device : devices)
        lanes.push_back({device.index, device.uuid.empty() ? device.index : device.uuid, target_of(device)});
    return lanes;
}

} // namespace

std::vector<ListedDevice> parse_device_listing(const std::string &csv) {
    std::vector<ListedDevice> devices;
    std::istringstream lines(csv);
    for (std::string line; std::getline(lines, line);) {
        const auto fields = split(line, ',');
        if (fields.size() < 2 || fields[0].empty() || fields[0].find_first_not_of("0123456789") != std::string::npos)
            continue;
        ListedDevice device{fields[0], fields[1], fields.size() > 2 ? fields[2] : "", ""};
        if (fields.size() > 3 && fields[3].find('.') != std::string::npos) device.compute_capability = fields[3];
        devices.push_back(device);
    }
    return devices;
}

std::vector<ListedDevice> listed_devices() {
    if (find_program("nvidia-smi").empty()) return {};
    ChildSetup setup;
    setup.wall_seconds = 30;
    const auto run =
        run_captured({"nvidia-smi", "--query-gpu=index,uuid,name,compute_cap", "--format=csv,noheader"}, setup);
    if (!run.started || run.exit_code != 0) return {};
    return parse_device_listing(run.output);
}

std::vector<GpuLane> choose_lanes(const std::string &gpus_option, const char *visible_devices,
                                  const std::vector<ListedDevice> &devices) {
    const auto available = available_lanes(visible_devices, devices);
    if (gpus_option == "all") {
        if (!available.empty()) return available;
        return {{no_gpu_lane, std::nullopt, std::string()}};
    }
    std::vector<GpuLane> chosen;
    std::string names;
    for (const auto &lane : available) names += (names.empty() ? "" : ", ") + lane.label;
    for (const auto &wanted : split(gpus_option, ',')) {
        const auto lane =
            std::find_if(available.begin(), available.end(), [&](const GpuLane &l) { return l.label == wanted; });
        if (lane == available.end())
            throw UsageError("--gpus " + gpus_option + ": there is no GPU " + wanted + " here (" +
                             (available.empty() ? std::string("no GPU is visible") : "the GPUs: " + names) +
                             "); --gpus all uses every one");
        if (std::any_of(chosen.begin(), chosen.end(), [&](const GpuLane &l) { return l.label == wanted; }))
            throw UsageError("--gpus " + gpus_option + ": GPU " + wanted + " is named twice");
        chosen.push_back(*lane);
    }
    if (chosen.empty()) throw UsageError("--gpus: expected all or a list of GPUs such as 0,1");
    return chosen;
}

} // namespace gemm::batch
