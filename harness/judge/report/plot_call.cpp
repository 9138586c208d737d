#include "judge/report/plot_call.hpp"
#include "judge/os/process.hpp"

#include <cstdlib>
#include <fstream>

namespace gemm {

std::string plot_script() {
    const char *root = std::getenv("GEMM_JUDGE_ROOT");
    return root && *root ? std::string(root) + "/harness/judge/report/plot.py" : GEMM_JUDGE_PLOT_SCRIPT;
}

std::string draw_plot(const nlohmann::json &figures, const std::string &output) {
    const std::string data = output + ".json";
    std::ofstream(data) << figures.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    const auto run = run_captured({"python3", plot_script(), data, output});
    if (!run.started) return "cannot run python3 for the plot";
    if (run.exit_code != 0) return "plot.py failed: " + run.output;
    return "";
}

void draw_plot_and_tell(Reporter &report, const nlohmann::json &figures, const std::string &output) {
    const std::string why = draw_plot(figures, output);
    report.note(why.empty() ? "plot: " + output : "plot: not drawn: " + why);
}

} // namespace gemm
