#include "command_line/reporters/summary_json.hpp"

#include "measurement/stats.hpp"

#include <filesystem>

namespace gemm {

void to_json(nlohmann::json &j, const NoGpu &x) { j = x.why; }

void to_json(nlohmann::json &j, const ShrinkFinding &x) {
    j = {{"case", x.case_name},
         {"smallest", shape_text(x.result.smallest, "x")},
         {"attempts", x.result.attempts},
         {"thresholds", x.result.thresholds},
         {"words", x.thresholds_in_words},
         {"command", x.command}};
}

void to_json(nlohmann::json &j, const StressFinding &x) {
    j = {{"shapes_run", x.shapes_run}, {"failed", x.failed ? nlohmann::json(*x.failed) : nlohmann::json(nullptr)}};
}

void to_json(nlohmann::json &j, const ProfileFinding &x) {
    const KernelProfile &p = x.profile;
    j = {{"case", x.case_name},
         {"kernel", p.kernel},
         {"kernels", p.kernels},
         {"duration_ms", p.duration_ms},
         {"judge_median_ms", x.judge_median_ms},
         {"tflops", flop_count(x.shape.M, x.shape.N, x.shape.K, x.shape.batch) / (p.duration_ms * 1e9)},
         {"sm_throughput_percent", p.sm_percent},
         {"dram_throughput_percent", p.dram_percent},
         {"achieved_occupancy_percent", p.occupancy_percent},
         {"registers_per_thread", p.registers},
         {"shared_bytes_per_block", p.shared_bytes}};
}

// The figures of a ranked run, for --json and plot.py (kind "rank"). A row's round_sizes
// split its case's samples_ms back into rounds (compare of two reports).
void to_json(nlohmann::json &j, const RankSummary &x) {
    nlohmann::json rows = nlohmann::json::array(), plot_shapes = nlohmann::json::array(),
                   per_shape_gflops = nlohmann::json::object();
    for (const RankRow &row : x.rows) {
        const CaseResult &r = row.result;
        const double flops = flop_count(r.M, r.N, r.K, r.batch);
        const double cublas_gflops = gflops(flops, r.baseline->stats.median_ms);
        const double own_gflops = gflops(flops, r.timing->stats.median_ms);
        rows.push_back({{"name", r.name},
                        {"M", r.M},
                        {"N", r.N},
                        {"K", r.K},
                        {"median_ms", r.timing->stats.median_ms},
                        {"spread", r.timing->stats.relative_spread()},
                        {"gflops", own_gflops},
                        {"cublas_gflops", cublas_gflops},
                        {"ratio_to_cublas", r.baseline->stats.median_ms / r.timing->stats.median_ms},
                        {"round_sizes", row.round_sizes}});
        plot_shapes.push_back({{"name", r.name}, {"M", r.M}, {"N", r.N}, {"K", r.K}, {"cublas_gflops", cublas_gflops}});
        per_shape_gflops[r.name] = own_gflops;
    }
    const std::string name = std::filesystem::path(x.solution).stem().string();
    j = {{"kind", "rank"},
         {"title", name + " on the ranked set"},
         {"gpu", x.gpu},
         {"shapes", plot_shapes},
         {"solutions", nlohmann::json::array({{{"name", name}, {"gflops", per_shape_gflops}}})},
         {"peak_gflops", x.score.peak.gflops()},
         {"peak_formula", x.score.peak.formula()},
         {"rows", rows},
         {"rounds", x.rounds},
         {"noise_floor", x.noise.relative_half_width()},
         {"score_interval", {x.noise.low, x.noise.high}},
         {"noise_method", ratio_interval_method},
         {"score",
          {{"geomean_ms", x.score.geomean_ms},
           {"geomean_ratio_to_cublas", x.score.geomean_ratio_to_cublas.value_or(0)},
           {"percent_of_peak", x.score.percent_of_peak.value_or(0)}}}};
}

namespace {

// A side's timings round by round, for a later analysis.
nlohmann::json side_json(const SideRounds &t) {
    return {{"rounds_ms", t.rounds_ms}, {"raw_rounds_ms", t.raw_rounds_ms}, {"offsets_ms", t.offsets_ms}};
}

} // namespace

void to_json(nlohmann::json &j, const CompareSummary &x) {
    nlohmann::json shapes = nlohmann::json::array();
    for (const ComparedShape &r : x.shapes) {
        const double flops = flop_count(r.shape.M, r.shape.N, r.shape.K, r.shape.batch);
        shapes.push_back({{"name", r.name},
                          {"M", r.shape.M},
                          {"N", r.shape.N},
                          {"K", r.shape.K},
                          {"old_gflops", gflops(flops, r.old_ms)},
                          {"new_gflops", gflops(flops, r.new_ms)},
                          {"speedup", r.speedup.ratio},
                          {"interval", {r.speedup.low, r.speedup.high}},
                          {"p_value", r.p_value},
                          {"significant", r.significant},
                          {"old_side", side_json(r.old_side)},
                          {"new_side", side_json(r.new_side)}});
    }
    j = {{"kind", "compare"},
         {"title", x.old_name + " vs " + x.new_name},
         {"old", x.old_name},
         {"new", x.new_name},
         {"level", x.shapes.empty() ? x.family_level : x.shapes.front().speedup.level},
         {"family_level", x.family_level},
         {"method", ratio_interval_method},
         {"shapes", shapes}};
}

// The attempts that have a score, for plot.py (kind "history").
void to_json(nlohmann::json &j, const HistoryList &x) {
    nlohmann::json points = nlohmann::json::array();
    for (const HistoryRow &row : x.rows)
        if (row.attempt.geomean_ratio_to_cublas)
            points.push_back({{"time", row.attempt.time_utc},
                              {"solution", row.attempt.solution_name},
                              {"problem", row.attempt.problem},
                              {"score", *row.attempt.geomean_ratio_to_cublas}});
    j = {{"kind", "history"},
         {"title", "attempts" + (x.solution.empty() ? "" : " of " + x.solution)},
         {"metric", "geomean_ratio_to_cublas"},
         {"attempts", points}};
}

void to_json(nlohmann::json &j, const Leaderboards &x) {
    // Keyed by GPU, as before problems; each GPU's rows board by board (problem, then place).
    j = nlohmann::json::object();
    for (const Leaderboard &board : x.boards) {
        nlohmann::json &rows = j[board.gpu];
        if (rows.is_null()) rows = nlohmann::json::array();
        int place = 0;
        for (const Attempt &a : board.places)
            rows.push_back({{"solution", a.solution_path},
                            {"problem", board.problem},
                            {"place", ++place},
                            {"attempt", a.id},
                            {"geomean_ratio_to_cublas", a.geomean_ratio_to_cublas.value_or(0)},
                            {"percent_of_peak", a.percent_of_peak.value_or(0)}});
    }
}

} // namespace gemm
