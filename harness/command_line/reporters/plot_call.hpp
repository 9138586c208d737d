// --plot: the figures of a rank, compare or history run drawn by plot.py (matplotlib,
// beside this file) from the JSON the judge writes for it; the schema is in plot_input.py.
#pragma once

#include "command_line/reporters/reporter.hpp"

#include <nlohmann/json.hpp>
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

// draw_plot, then a note to the reporters: where the picture is, or why there is none.
void draw_plot_and_tell(Reporter &report, const nlohmann::json &figures, const std::string &output);

} // namespace gemm
