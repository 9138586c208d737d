#include "command_line/reporters/plot_call.hpp"
#include "common/terminal_text.hpp"
#include "judging/os/child_process.hpp"
#include "judging/os/process.hpp"
#include "verification/verdict.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sys/wait.h>
#include <unistd.h>

namespace gemm {

std::string plot_script() {
    const char *root = std::getenv("GEMM_JUDGE_ROOT");
    return root && *root ? std::string(root) + "/harness/command_line/reporters/plot.py" : GEMM_JUDGE_PLOT_SCRIPT;
}

int ensure_matplotlib() {
    const char *root = std::getenv("GEMM_JUDGE_ROOT");
    const std::string script =
        (root && *root ? std::string(root) : std::string(GEMM_JUDGE_SOURCE_ROOT)) + "/scripts/lib/ensure-matplotlib.sh";
    ChildSpec spec;
    spec.argv = {"bash", script, plot_script()};
    spec.output_fd = STDERR_FILENO; // its one line, or apt's output when the install fails
    ChildProcess check;
    if (!check.start(spec)) {
        std::cerr << "judge: JE: cannot run " << script << " to look for matplotlib\n";
        return exit_status::judge_error;
    }
    const int status = check.reap(24 * 3600.0);
    if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == exit_status::setup ||
                              WEXITSTATUS(status) == exit_status::judge_error))
        return WEXITSTATUS(status);
    std::cerr << "judge: JE: " << script << " " << describe_wait_status(status) << "\n";
    return exit_status::judge_error;
}

std::string draw_plot(const nlohmann::json &figures, const std::string &output) {
    const std::string data = output + ".json";
    std::ofstream(data) << figures.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    const auto run = run_captured({"python3", plot_script(), data, output});
    if (!run.started) return "cannot run python3 for the plot";
    if (run.exit_code != 0) return "plot.py failed: " + run.output;
    return "";
}

void PlotReporter::draw(const nlohmann::json &figures) {
    const std::string why = draw_plot(made_valid_utf8(figures), output_);
    out_ << escape_for_terminal(why.empty() ? "plot: " + output_ : "plot: not drawn: " + why, true) << "\n"
         << std::flush;
}

} // namespace gemm
