#include "verification/run_score.hpp"

namespace gemm {

std::optional<std::vector<TimedShape>> accepted_timed_shapes(const std::vector<CaseResult> &results) {
    std::vector<TimedShape> shapes;
    for (const auto &r : results) {
        if (r.verdict != Verdict::AC) return std::nullopt;
        if (!r.timing) continue;
        TimedShape shape{r.M, r.N, r.K, r.timing->stats.median_ms, std::nullopt, r.timing->sm_clock_mhz};
        shape.batch = r.batch;
        if (r.baseline) shape.cublas_ms = r.baseline->stats.median_ms;
        shapes.push_back(shape);
    }
    return shapes;
}

int sm_clock_during_run(const std::vector<CaseResult> &results, const DeviceInfo &device) {
    std::vector<TimedShape> clocks;
    for (const auto &r : results)
        if (r.timing) clocks.push_back({r.M, r.N, r.K, 0, std::nullopt, r.timing->sm_clock_mhz});
    return sm_clock_during_run(clocks, device);
}

std::optional<Score> score_of(const std::vector<CaseResult> &results, const DeviceInfo &device) {
    const auto shapes = accepted_timed_shapes(results);
    if (!shapes) return std::nullopt;
    return score_of(*shapes, device);
}

std::optional<Score> score_against_cublas(const std::vector<CaseResult> &results, const DeviceInfo &device) {
    auto shapes = accepted_timed_shapes(results);
    if (!shapes) return std::nullopt;
    std::vector<TimedShape> against_cublas;
    for (const auto &shape : *shapes)
        if (shape.cublas_ms) against_cublas.push_back(shape);
    return score_of(against_cublas, device);
}

} // namespace gemm
