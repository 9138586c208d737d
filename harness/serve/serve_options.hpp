// `./judge serve [--port P] [--host H] …`: its own command line (CLI11), apart from the
// judge's, since none of the judge's options mean anything to the server.
#pragma once

#include <string>
#include <variant>

namespace gemm::serve {

struct ServeOptions {
    std::string host = "127.0.0.1"; // this machine only, unless the user says otherwise
    int port = 8765;                // 0: any free port (the URL printed names it)
    std::string history_path;       // where the judges record attempts and the page reads them
    std::string testcases_dir;
    std::size_t queued_per_token = 3; // submissions one browser may have waiting or being judged
};

// The options, or the exit status to return at once (--help, or a usage error already
// explained on stderr). `argv` begins with "serve".
std::variant<ServeOptions, int> parse_serve_command_line(int argc, const char *const *argv,
                                                         const std::string &default_testcases_dir);

} // namespace gemm::serve
