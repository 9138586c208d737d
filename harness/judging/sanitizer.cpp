#include "judging/sanitizer.hpp"

#include <filesystem>
#include <regex>
#include <sstream>

namespace gemm {

namespace {

// Report lines start with "========= "; an error's first line names it, the lines
// after it say where ("at kernel(...)+0x1f0 in /path/tiled.cu:31").
constexpr const char *report_prefix = "========= ";

bool starts_error(const std::string &text) {
    static const std::regex error_start(
        R"(^(Error:|Invalid |Race reported|Uninitialized |Barrier error|Warp |Program hit|Misaligned |Out-of-range |Malloc/Free|Leaked |Cuda API error|Potential ))");
    return std::regex_search(text, error_start);
}

// "at tiled_gemm(const float *, …)+0x2f0 in /home/me/tiled.cu:31" → "at tiled.cu:31"
std::string shorten_locations(const std::string &text) {
    static const std::regex location(R"((at )[^\n]*?\+0x[0-9a-f]+ in (?:\S*/)?([^/\s]+:\d+))");
    return std::regex_replace(text, location, "$1$2");
}

} // namespace

const std::vector<std::string> &sanitizer_tools() {
    static const std::vector<std::string> tools{"memcheck", "racecheck", "synccheck", "initcheck"};
    return tools;
}

std::string sanitizer_program(const std::string &nvcc) {
    const auto beside = std::filesystem::path(nvcc).parent_path() / "compute-sanitizer";
    std::error_code ec;
    return std::filesystem::exists(beside, ec) ? beside.string() : "compute-sanitizer";
}

std::vector<std::string> sanitizer_prefix(const std::string &program, const std::string &tool) {
    return {program, "--tool", tool, "--print-limit", "5", "--show-backtrace", "no"};
}

std::optional<std::string> sanitizer_finding(const std::string &tool, const std::string &output) {
    std::istringstream lines(output);
    std::string finding;
    bool in_error = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind(report_prefix, 0) != 0) continue;
        std::string text = line.substr(std::string(report_prefix).size());
        const auto first = text.find_first_not_of(' ');
        const bool continuation = first != 0;
        text = first == std::string::npos ? "" : text.substr(first);
        if (!in_error) {
            if (!continuation && starts_error(text)) {
                finding = text;
                in_error = true;
            }
            continue;
        }
        if (!continuation || text.empty()) break;
        // Keep where it happened ("at …") and, for a race, the first other access ("and …");
        // stop before thread, address and further hazard detail.
        if (text.rfind("at ", 0) == 0) {
            finding += " " + text;
        } else if (text.rfind("and ", 0) == 0) {
            finding += " " + text;
            break;
        } else {
            break;
        }
    }
    if (finding.empty()) return std::nullopt;
    if (finding.rfind("Error: ", 0) == 0) finding.erase(0, 7);
    return tool + ": " + shorten_locations(finding);
}

} // namespace gemm
