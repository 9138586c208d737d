#include "compile/gpu_target.hpp"
#include "common/errors.hpp"
#include "judging/os/process.hpp"

#include <algorithm>
#include <regex>
#include <set>
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
                                                    : target_without_gpu;
    const auto listed = run_captured({nvcc, "--list-gpu-code"});
    if (!listed.started || listed.exit_code != 0) return target; // an nvcc too old to say: let it decide
    if (nvcc_knows_target(target, listed.output)) return target;
    if (arch_option.empty() && !device.present) return ""; // no GPU needs it: nvcc's default still checks the code
    std::string known = "it knows";
    std::istringstream words(listed.output);
    for (std::string word; words >> word;) known += " " + word;
    known += " (and sm_XXa from sm_90)";
    if (!arch_option.empty())
        throw UsageError("--arch " + arch_option + ": " + nvcc + " cannot compile for this target; " + known);
    throw SetupError("the GPU (" + device.name + ") needs " + target + ", which " + nvcc +
                     " cannot compile for: install a newer CUDA Toolkit or give --arch; " + known);
}

std::string target_in_words(const std::string &target, const std::string &arch_option, const DeviceInfo &device) {
    if (target.empty()) return "nvcc's default target";
    if (arch_option.empty() && !device.present) return target + " (no GPU found; --arch to choose)";
    return target;
}

std::optional<std::string> target_hint(const std::string &nvcc_output, const std::string &target) {
    // ptxas names the lowest target a feature needs, or only the target that lacks an
    // instruction: those (wgmma, setmaxnreg) exist only on an arch-specific target.
    static const std::regex needs(R"((?:Feature|Instruction) '([^']+)' requires \.target sm_([0-9]+))");
    static const std::regex lacks(
        R"((?:Feature|Instruction) '([^']+)' not supported on \.target 'sm_([0-9]+)([af]?)')");
    int needed = 0;
    bool arch_specific = false;
    std::set<std::string> features; // "wgmma.fence", "cp.async.wait_group", ".tf32" as wgmma, cp.async, tf32
    const auto feature = [&](const std::string &name) {
        std::string bare = name.substr(std::min(name.find_first_not_of('.'), name.size()));
        bare = bare.substr(0, bare.find_first_of(" :"));
        const std::size_t dot = bare.find('.');
        features.insert(bare.substr(0, dot <= 2 ? bare.find('.', dot + 1) : dot));
    };
    for (std::sregex_iterator m(nvcc_output.begin(), nvcc_output.end(), needs), end; m != end; ++m) {
        needed = std::max(needed, std::stoi((*m)[2]));
        feature((*m)[1]);
    }
    for (std::sregex_iterator m(nvcc_output.begin(), nvcc_output.end(), lacks), end; m != end; ++m) {
        if (!(*m)[3].str().empty()) return std::nullopt; // already arch-specific: nothing to suggest
        needed = std::max({needed, std::stoi((*m)[2]), 90});
        arch_specific = true;
        feature((*m)[1]);
    }
    if (needed == 0) return std::nullopt;
    // From Hopper on the arch-specific target holds every instruction of the plain one.
    const std::string suggested = "sm_" + std::to_string(needed) + (arch_specific || needed >= 90 ? "a" : "");
    std::string named;
    for (const auto &name : features) {
        if (named.size() + name.size() > 30) { // the line within 100 columns
            named += ", …";
            break;
        }
        named += (named.empty() ? "" : ", ") + name;
    }
    return "the cause is the GPU target: " + (target.empty() ? "nvcc's default target" : target) + " lacks " + named +
           "; try --arch " + suggested;
}

} // namespace gemm
