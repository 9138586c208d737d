#include "command_line/reporters/report_file.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <unistd.h>

namespace gemm {

void write_report_file(const char *option, const std::string &path, const std::string &text) {
    const auto failed = [] { return errno != 0 ? errno : EIO; };
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    const bool in_place = std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
    const std::string written = in_place ? path : path + ".part" + std::to_string(getpid());
    std::FILE *file = std::fopen(written.c_str(), "w");
    int error = file ? 0 : failed();
    if (file) {
        if (std::fwrite(text.data(), 1, text.size(), file) != text.size() || std::fflush(file) != 0) error = failed();
        if (std::fclose(file) != 0 && error == 0) error = failed();
    }
    if (!in_place && error == 0 && std::rename(written.c_str(), path.c_str()) != 0) error = failed();
    if (!in_place && error != 0) std::remove(written.c_str());
    if (error != 0)
        throw SetupError(std::string("cannot write the ") + option + " report " + escape_for_terminal(path) + ": " +
                         std::strerror(error));
}

} // namespace gemm
