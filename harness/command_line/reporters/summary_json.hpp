// The summaries (summaries.hpp) as the JSON report holds them, under the key each names:
// what --json writes, the history keeps with an attempt and plot.py draws (its input schema
// is plot_input.py; the report's is docs/report.schema.json).
#pragma once

#include "command_line/reporters/summaries.hpp"

#include <nlohmann/json.hpp>

namespace gemm {

void to_json(nlohmann::json &j, const NoGpu &x);
void to_json(nlohmann::json &j, const ShrinkFinding &x);
void to_json(nlohmann::json &j, const StressFinding &x);
void to_json(nlohmann::json &j, const ProfileFinding &x);
void to_json(nlohmann::json &j, const RankSummary &x);
void to_json(nlohmann::json &j, const CompareSummary &x);
void to_json(nlohmann::json &j, const HistoryList &x);
void to_json(nlohmann::json &j, const Leaderboards &x);

} // namespace gemm
