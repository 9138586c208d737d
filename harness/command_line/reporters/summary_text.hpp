// The summaries (summaries.hpp) as the console shows them: one block of text each, in the
// words and columns a reader of the terminal table expects. Text from outside (file and GPU
// names, kernel names) is escaped for the terminal here or by the console reporter.
#pragma once

#include "command_line/reporters/summaries.hpp"

#include <string>

namespace gemm {

std::string text_of(const NoGpu &x);
std::string text_of(const ShrinkFinding &x);
std::string text_of(const StressFinding &x);
std::string text_of(const ProfileFinding &x);
std::string text_of(const RankSummary &x);
std::string text_of(const CompareSummary &x);
std::string text_of(const HistoryList &x);
std::string text_of(const Leaderboard &x);

} // namespace gemm
