// The page's HTTP API (docs/serve.md lists it). Every request must carry the access token:
// as a cookie (set when the printed URL is opened), a `token` query parameter or an
// X-Judge-Token header; without it the answer is 403. A request that changes something
// (a POST) must carry it in the X-Judge-Token header itself, which a page of another site
// cannot add to a request it makes the browser send: no cross-site request forgery.
#pragma once

#include "serve/judging_queue.hpp"

#include <string>

namespace httplib {
class Server;
}

namespace gemm::serve {

struct PageSettings {
    std::string token;
    std::string static_dir;     // the page and its script (harness/serve/static)
    std::string codemirror_dir; // Debian's libjs-codemirror, or "" when absent
    std::string solutions_dir;  // the checkout's solutions/, offered to open
    std::string testcases_dir;
    std::string problems_dir; // the checkout's testcases/, where the judge resolves --problem
    std::string history_path;
    std::string judge_program; // runs compare and history --plot for the page
};

// The largest solution accepted, as the judge's own limit on a source file.
constexpr std::size_t largest_source_bytes = 1 << 20;

void add_routes(httplib::Server &server, const PageSettings &settings, JudgingQueue &queue);

} // namespace gemm::serve
