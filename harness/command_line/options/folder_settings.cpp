#include "command_line/options/folder_settings.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "common/text.hpp"

#include <cstdlib>
#include <filesystem>
#include <sstream>

namespace gemm {

namespace fs = std::filesystem;

namespace {

fs::path resolved_folder(const std::string &dir, const fs::path &base) {
    if (dir.rfind("~/", 0) == 0) {
        const char *home = std::getenv("HOME");
        return fs::path(home ? home : "") / dir.substr(2);
    }
    return (base / dir).lexically_normal(); // an absolute dir replaces the base
}

} // namespace

FolderSettings folder_settings(const std::string &solution_path) {
    const fs::path folder = fs::absolute(solution_path).parent_path();
    const fs::path file = folder / folder_settings_file;
    FolderSettings settings;
    std::error_code ec;
    if (!fs::exists(file, ec)) return settings;
    settings.file = file.string();
    const auto text = read_text_file(settings.file);
    if (!text) throw SetupError(escape_for_terminal(settings.file) + ":0: cannot be read");
    std::istringstream lines(without_utf8_bom(*text));
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        auto fail = [&](const std::string &why) {
            throw SetupError(escape_for_terminal(settings.file + ":" + std::to_string(number) + ": " + why));
        };
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        std::string key, dir;
        if (!(words >> key)) continue;
        if (key != "include" && key != "problem")
            fail("unknown setting `" + key + "` (expected `include DIR` or `problem NAME`)");
        std::getline(words >> std::ws, dir); // the rest of the line: a folder may hold spaces
        dir.erase(dir.find_last_not_of(" \t\r") + 1);
        if (key == "problem") {
            if (dir.empty() || dir.find_first_of(" \t") != std::string::npos) fail("expected `problem NAME`");
            if (!settings.problem.empty()) fail("`problem` appears twice");
            settings.problem = dir;
            continue;
        }
        if (dir.empty()) fail("expected `include DIR`");
        const fs::path resolved = resolved_folder(dir, folder);
        if (!fs::is_directory(resolved, ec)) fail("include folder " + resolved.string() + " does not exist");
        settings.include_dirs.push_back(resolved.string());
    }
    return settings;
}

} // namespace gemm
