#include "measurement/time_resolution.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <cmath>

namespace gemm {

namespace {

// The median's standard error: 1.2533·σ/√n for a normal sample, σ ≈ IQR/1.349.
double median_standard_error_ms(const TimingSummary &stats) {
    if (stats.samples < 2) return 0;
    const double iqr = stats.q3_ms - stats.q1_ms;
    return 0.929 * iqr / std::sqrt(double(stats.samples));
}

// The smallest of 1, 2, 5 × 10^k that is at least `x`.
double one_two_five_at_least(double x) {
    const double decade = std::pow(10.0, std::floor(std::log10(x)));
    for (double step : {1.0, 2.0, 5.0, 10.0})
        if (step * decade >= x * (1 - 1e-12)) return step * decade;
    return 10 * decade;
}

} // namespace

double time_resolution_ms(const TimedRun &run, const TimeResolutionRule &rule) {
    return std::max({rule.path_drift_ms, run.empty_call.spread_in_solution_process_ms(),
                     median_standard_error_ms(run.stats), rule.relative_drift * std::fabs(run.stats.median_ms)});
}

ResolvedTime resolve_time(double value_ms, double resolution_ms) {
    ResolvedTime t;
    t.value_ms = value_ms;
    const double resolution = resolution_ms > 0 ? resolution_ms : 1e-6;
    if (value_ms < 3 * resolution) {
        t.kind = ResolvedTime::Kind::Below;
        t.bound_ms = one_two_five_at_least(3 * resolution);
        return t;
    }
    if (resolution / value_ms >= 0.02) {
        // "0.51 ± 0.02": the resolution to one significant digit, the value to the same place.
        const int exponent = static_cast<int>(std::floor(std::log10(resolution)));
        const double place = std::pow(10.0, exponent);
        t.kind = ResolvedTime::Kind::WithError;
        t.place_exponent = exponent;
        t.resolution_ms = std::ceil(resolution / place - 1e-9) * place;
        return t;
    }
    // Alone, the last digit shown is one the resolution moves by at most one unit.
    const int exponent = static_cast<int>(std::ceil(std::log10(resolution) - 1e-9));
    t.kind = ResolvedTime::Kind::Plain;
    t.place_exponent = exponent;
    t.resolution_ms = resolution;
    return t;
}

int ResolvedTime::decimals_in(double unit_ms) const {
    return std::max(0, static_cast<int>(std::lround(std::log10(unit_ms))) - place_exponent);
}

int significant_digits(double value_ms, double resolution_ms) {
    if (value_ms <= 0 || resolution_ms <= 0) return 4;
    const int digits = static_cast<int>(std::floor(-std::log10(resolution_ms / value_ms))) + 1;
    return std::clamp(digits, 1, 4);
}

std::string time_text(const ResolvedTime &t) {
    switch (t.kind) {
    case ResolvedTime::Kind::Below: return "< " + formatted("%g", t.bound_ms) + " ms";
    case ResolvedTime::Kind::WithError: {
        const int decimals = t.decimals_in(1);
        return formatted("%.*f ± %.*f ms", decimals, t.value_ms, decimals, t.resolution_ms);
    }
    case ResolvedTime::Kind::Plain: break;
    }
    if (t.value_ms >= 1000) return formatted("%.*f s", t.decimals_in(1000), t.value_ms / 1000);
    return formatted("%.*f ms", t.decimals_in(1), t.value_ms);
}

std::string time_text(const TimedRun &run) {
    return time_text(resolve_time(run.stats.median_ms, time_resolution_ms(run)));
}

} // namespace gemm
