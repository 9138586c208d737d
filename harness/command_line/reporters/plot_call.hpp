// --plot: the figures of a rank, compare or history run drawn by plot.py (matplotlib,
// beside this file) from the JSON the judge writes for it; the schema is in plot_input.py.
#pragma once

#include "command_line/reporters/reporter.hpp"
#include "command_line/reporters/summary_json.hpp"

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace gemm {

// The checkout's plot.py: in the checkout ./judge names in GEMM_JUDGE_ROOT, else in the one
// the judge was built from.
std::string plot_script();

// Before a run with --plot: makes sure plot.py finds matplotlib, which the first build does
// not install (scripts/lib/ensure-matplotlib.sh: as root with apt it installs
// python3-matplotlib, saying so in one line; otherwise it names the command). 0 when it is
// there, else the exit status to stop with (setup, or JE when the install failed), before
// anything runs or is recorded.
int ensure_matplotlib();

// Writes `figures` next to `output` (as OUTPUT.json) and draws them; "" or why not.
std::string draw_plot(const nlohmann::json &figures, const std::string &output);

// --plot FILE: draws the figures of a rank, compare or history run (their JSON,
// summary_json.hpp) and says in one line on `out` where the picture is, or why there is none.
class PlotReporter : public Reporter {
  public:
    PlotReporter(std::ostream &out, std::string output) : out_(out), output_(std::move(output)) {}
    void ranked(const RankSummary &x) override { draw(nlohmann::json(x)); }
    void compared(const CompareSummary &x) override { draw(nlohmann::json(x)); }
    void history_listed(const HistoryList &x) override { draw(nlohmann::json(x)); }

  private:
    void draw(const nlohmann::json &figures);
    std::ostream &out_;
    std::string output_;
};

} // namespace gemm
