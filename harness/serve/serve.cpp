#include "serve/serve.hpp"
#include "common/terminal_text.hpp"
#include "serve/access_token.hpp"
#include "serve/http_routes.hpp"
#include "serve/serve_options.hpp"
#include "verification/verdict.hpp"

#include <cstdlib>
#include <filesystem>
#include <httplib.h>
#include <iostream>

namespace gemm::serve {

namespace fs = std::filesystem;

namespace {

// Debian's libjs-codemirror; without it the page offers a plain text area and says why.
const char *codemirror_dir = "/usr/share/javascript/codemirror";

// Where submitted files are written for the judge to read: beside the history, one file per
// name, so every attempt at one name is one solution in the history and the leaderboard.
std::string submitted_folder(const std::string &history_path) {
    const fs::path folder = fs::path(history_path).parent_path() / "submitted";
    fs::create_directories(folder);
    fs::permissions(folder, fs::perms::owner_all, fs::perm_options::replace);
    return folder.string();
}

// The judge that judges a submission: this program, as ./judge runs it; in the server's
// own tests a fake that judges without a GPU (GEMM_JUDGE_SERVE_JUDGE).
std::string submission_judge(const std::string &judge_program) {
    const char *fake = std::getenv("GEMM_JUDGE_SERVE_JUDGE");
    return fake && *fake ? fake : judge_program;
}

} // namespace

int serve_main(int argc, const char *const *argv, const std::string &judge_program, const std::string &checkout,
               const std::string &default_testcases_dir) {
    const auto parsed = parse_serve_command_line(argc, argv, default_testcases_dir);
    if (const int *status = std::get_if<int>(&parsed)) return *status;
    const ServeOptions &options = std::get<ServeOptions>(parsed);

    PageSettings settings;
    settings.token = new_access_token();
    settings.static_dir = (fs::path(checkout) / "harness/serve/static").string();
    std::error_code ec;
    settings.codemirror_dir = fs::is_directory(codemirror_dir, ec) ? codemirror_dir : "";
    settings.solutions_dir = (fs::path(checkout) / "solutions").string();
    settings.testcases_dir = options.testcases_dir;
    settings.problems_dir = default_testcases_dir;
    settings.history_path = options.history_path;
    settings.judge_program = judge_program;
    // The suite the Testcases tab shows is the one the default problem's judges read.
    JudgeProgram judge{submission_judge(judge_program),
                       {"--history", options.history_path},
                       options.testcases_dir == default_testcases_dir ? "" : options.testcases_dir};
    JudgingQueue queue(judge, submitted_folder(options.history_path), options.queued_per_token);

    httplib::Server server;
    // Each page watching a run holds a connection: more than httplib's few by default.
    server.new_task_queue = [] { return new httplib::ThreadPool(32); };
    server.set_payload_max_length(largest_source_bytes * 2 + 4096); // the source, JSON-escaped
    add_routes(server, settings, queue);
    const int port = options.port == 0 ? server.bind_to_any_port(options.host)
                                       : (server.bind_to_port(options.host, options.port) ? options.port : -1);
    if (port < 0) {
        std::cerr << "judge serve: cannot listen on " << options.host << ":" << options.port
                  << " (in use, or not an address of this machine); choose another with --port or --host\n";
        return exit_status::setup;
    }
    if (options.host != "127.0.0.1" && options.host != "localhost" && options.host != "::1")
        std::cout << wrap_to_width("judge serve: listening on " + options.host +
                                       ", reachable from other machines: every request still needs the token "
                                       "below, and it travels unencrypted (plain HTTP)",
                                   console_width, 2)
                  << "\n";
    if (settings.codemirror_dir.empty())
        std::cout << "judge serve: libjs-codemirror is not installed: the editor is a plain text area\n";
    const std::string shown_host = options.host == "0.0.0.0" ? "127.0.0.1" : options.host;
    // The address on a line of its own: whole, to copy, and within the 100 columns with its token.
    std::cout << "judge serve: open this address in a browser:\n  http://" << shown_host << ":" << port
              << "/?token=" << settings.token
              << "\njudge serve: judging one submission at a time; Ctrl-C stops the server and every judge it "
                 "started\n"
              << std::flush;
    server.listen_after_bind();
    return 0;
}

} // namespace gemm::serve
