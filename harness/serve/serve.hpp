// `./judge serve`: the web page (http_routes.hpp) on 127.0.0.1 by default, its URL printed
// with a fresh access token. Ctrl-C or SIGTERM ends the server and every judge it started
// (each runs in a process group that the judge's interrupt handler kills and that dies
// with the server: judging/os/interrupt.hpp).
#pragma once

#include <string>

namespace gemm::serve {

// argv begins with "serve". `judge_program`: the judge that judges submissions (this
// program itself); `checkout`: the folder holding solutions/ and the page's assets.
int serve_main(int argc, const char *const *argv, const std::string &judge_program, const std::string &checkout,
               const std::string &default_testcases_dir);

} // namespace gemm::serve
