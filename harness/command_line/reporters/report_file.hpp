// A report file (--json, --junit) written whole or not at all: a regular file is written
// beside itself and renamed into place, so it is never a report cut where the disk filled up.
#pragma once

#include <string>

namespace gemm {

// The whole text, or a SetupError naming the option and the file: a full disk (/dev/full)
// shows only when the buffered bytes reach it, at fflush or fclose.
void write_report_file(const char *option, const std::string &path, const std::string &text);

} // namespace gemm
