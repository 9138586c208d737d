#include "judging/compile/gpu_target.hpp"
#include "common/errors.hpp"
#include "judging/os/process.hpp"

#include <regex>
#include <sstream>

namespace gemm {

namespace {

// "sm_90a" → {"90", "a"}
bool split_target(const std::string &target, std::string &number, std::string &variant) {
    static const std::regex pattern(R"(sm_([1-9][0-9]{1,2})([af]?))");
    std::smatch m;
    if (!std::regex_match(target, m, pattern)) return false;
    number = m[1];
    variant = m[2];
    return true;
}

// Arch-specific variants exist from Hopper (9.0) on, family-specific ones from Blackwell (10.0).
bool has_variant(int number, const std::string &variant) {
    if (variant == "a") return number >= 90;
    if (variant == "f") return number >= 100;
    return true;
}

} // namespace

std::string default_target(int cc_major, int cc_minor) {
    const int number = cc_major * 10 + cc_minor;
    return "sm_" + std::to_string(number) + (has_variant(number, "a") ? "a" : "");
}

bool is_target_name(const std::string &target) {
    std::string number, variant;
    return split_target(target, number, variant);
}

std::vector<std::string> target_arguments(const std::string &target) {
    std::string number, variant;
    if (!split_target(target, number, variant)) return {};
    if (variant.empty()) return {"-arch=" + target};
    return {"-gencode=arch=compute_" + number + variant + ",code=" + target};
}

bool nvcc_knows_target(const std::string &target, const std::string &listed_codes) {
    std::string number, variant;
    if (!split_target(target, number, variant)) return false;
    std::istringstream words(listed_codes);
    for (std::string word; words >> word;)
        if (word == "sm_" + number) return has_variant(std::stoi(number), variant);
    return false;
}

std::string choose_target(const std::string &arch_option, const DeviceInfo &device, const std::string &nvcc) {
    const std::string target = !arch_option.empty() ? arch_option
                               : device.present     ? default_target(device.cc_major, device.cc_minor)
                                                    : "";
    if (target.empty()) return target;
    const auto listed = run_captured({nvcc, "--list-gpu-code"});
    if (!listed.started || listed.exit_code != 0) return target; // an nvcc too old to say: let it decide
    if (nvcc_knows_target(target, listed.output)) return target;
    std::string known = "it knows";
    std::istringstream words(listed.output);
    for (std::string word; words >> word;) known += " " + word;
    known += " (and sm_XXa from sm_90)";
    if (!arch_option.empty())
        throw UsageError("--arch " + arch_option + ": " + nvcc + " cannot compile for this target; " + known);
    throw SetupError("the GPU (" + device.name + ") needs " + target + ", which " + nvcc +
                     " cannot compile for: install a newer CUDA Toolkit or give --arch; " + known);
}

} // namespace gemm
