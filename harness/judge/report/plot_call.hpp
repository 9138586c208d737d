// --plot: the figures of a rank, compare or history run drawn by scripts/plot.py
// (matplotlib) from the JSON the judge writes for it; the schema is in
// scripts/lib/plot_input.py.
#pragma once

#include "judge/report/reporter.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace gemm {

// The checkout's scripts/ folder: the one ./judge names in GEMM_JUDGE_ROOT, else the one
// the judge was built from.
std::string scripts_dir();

// Writes `figures` next to `output` (as OUTPUT.json) and draws them; "" or why not.
std::string draw_plot(const nlohmann::json &figures, const std::string &output);

// draw_plot, then a note to the reporters: where the picture is, or why there is none.
void draw_plot_and_tell(Reporter &report, const nlohmann::json &figures, const std::string &output);

} // namespace gemm
