#include "serve/serve_options.hpp"
#include "command_line/history/history.hpp"
#include "command_line/options/help_format.hpp"
#include "common/terminal_text.hpp"
#include "verification/verdict.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>

namespace gemm::serve {

std::variant<ServeOptions, int> parse_serve_command_line(int argc, const char *const *argv,
                                                         const std::string &default_testcases_dir) {
    ServeOptions options;
    options.testcases_dir = default_testcases_dir;
    CLI::App app{"A web page on this machine to write, judge and compare solutions. Every request needs the "
                 "access token printed with the URL; submissions are judged one at a time, each exactly as "
                 "./judge FILE judges it (compiled and run confined).",
                 "judge serve"};
    app.formatter(wrapping_formatter(help_width()));
    app.set_help_flag("-h,--help", "print this help and exit");
    app.add_option("--port", options.port, "the TCP port (0: any free one)")
        ->option_text("PORT")
        ->check(CLI::Range(0, 65535))
        ->capture_default_str();
    app.add_option("--host", options.host,
                   "the address to listen on; 0.0.0.0 lets other machines reach the page (still only with "
                   "the token)")
        ->option_text("ADDRESS")
        ->capture_default_str();
    app.add_option("--history", options.history_path,
                   "the history database the judges record into and the page reads (default: "
                   "$GEMM_JUDGE_HISTORY, else the user's data folder)")
        ->option_text("FILE")
        ->envname("GEMM_JUDGE_HISTORY");
    app.add_option("--testcases", options.testcases_dir, "the folder of *.case files")
        ->option_text("FOLDER")
        ->check(CLI::ExistingDirectory)
        ->capture_default_str();
    app.add_option("--queued-per-browser", options.queued_per_token,
                   "submissions one browser (one token) may have waiting or being judged")
        ->option_text("COUNT")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    try {
        app.parse(argc, argv); // argv[0] is "serve"
        if (options.history_path.empty()) options.history_path = default_history_path();
    } catch (const CLI::Success &e) {
        return print_help_or_version(app, e);
    } catch (const CLI::ParseError &e) {
        std::cerr << "judge serve: " << escape_for_terminal(e.what()) << "\n(./judge serve --help lists the options)\n";
        return static_cast<int>(exit_status::usage);
    } catch (const HistoryError &e) {
        std::cerr << "judge serve: " << e.what() << "\n";
        return static_cast<int>(exit_status::setup);
    }
    return options;
}

} // namespace gemm::serve
