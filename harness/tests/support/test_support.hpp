// Helpers shared by the suites that work with files and child processes.
#pragma once

#include "judging/os/process.hpp"
#include "measurement/gpu_sharing.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace gemm::test {

// A fresh, empty folder below the system's temporary folder, removed when the test ends.
struct TempFolder {
    std::filesystem::path path;
    explicit TempFolder(const std::string &label = "gemm-test") {
        const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
        path = std::filesystem::temp_directory_path() /
               (label + "-" + std::to_string(getpid()) + "-" + std::to_string(stamp));
        std::filesystem::create_directories(path);
    }
    ~TempFolder() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    TempFolder(const TempFolder &) = delete;
    TempFolder &operator=(const TempFolder &) = delete;

    // Writes `text` to `relative` below the folder (creating its folders); returns the path.
    std::string write(const std::string &relative, const std::string &text) const {
        const auto file = path / relative;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary) << text;
        return file.string();
    }
    std::string at(const std::string &relative) const { return (path / relative).string(); }
};

inline bool contains(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

inline bool starts_with(const std::string &text, const std::string &prefix) { return text.rfind(prefix, 0) == 0; }

// The whole file, byte for byte ("" when it cannot be read).
inline std::string bytes_of(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The judge these tests were built with.
inline const std::string judge_program = std::string(GEMM_BIN_DIR) + "/gemm-judge";

// How many processes whose parent is `parent` run the command `name` (as /proc shows it:
// its first 15 bytes).
inline int children_named(pid_t parent, const std::string &name) {
    int found = 0;
    for (const auto &entry : std::filesystem::directory_iterator("/proc")) {
        const std::string pid = entry.path().filename().string();
        if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
        const auto stat = process_stat(std::stoi(pid));
        if (stat && stat->parent == parent && stat->name == name.substr(0, 15)) ++found;
    }
    return found;
}

// True (and the test reports "[skipped: no nvcc]", which CTest counts as skipped, never as
// passed) when the nvcc these tests were built with cannot run.
inline bool skip_without_nvcc() {
    static const bool present = [] {
        const auto run = run_captured({GEMM_NVCC, "--version"});
        return run.started && run.exit_code == 0;
    }();
    if (!present) std::printf("[skipped: no nvcc]\n");
    return !present;
}

// A compile cache kept in the build folder between test runs, for tests whose solution is a
// file of the checkout and that test no behaviour of the cache: the key names the source,
// the flags, nvcc and every file it read, so a hit is the same library, and a second
// scripts/test does not compile them again. Tests of the cache itself use a folder of their own.
inline std::string shared_compile_cache() { return std::string(GEMM_BIN_DIR) + "/../test-compile-cache"; }

// Every line of the text, without its newline: for checks of a report's lines and widths.
inline std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

// A message as it read before the judge broke it into lines of the console's width: each
// line break with the indent after it is one space again.
inline std::string unwrapped(const std::string &text) {
    std::string out;
    for (std::size_t at = 0; at < text.size(); ++at) {
        if (text[at] != '\n' || at + 1 >= text.size() || text[at + 1] != ' ') {
            out += text[at];
            continue;
        }
        while (at + 1 < text.size() && text[at + 1] == ' ') ++at;
        out += ' ';
    }
    return out;
}

// How many times `part` occurs in `text` (overlapping ones counted).
inline std::size_t occurrences(const std::string &text, const std::string &part) {
    std::size_t count = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
    return count;
}

} // namespace gemm::test
