#include "verification/timed_check.hpp"
#include "verification/case_result.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace gemm {

namespace {

std::string projection_words(const ProjectionTally &p) {
    std::ostringstream s;
    s.precision(3);
    s << "Freivalds projection: " << p.rows_failed << " of " << p.rows_checked << " rows of C·x differ from A·(B·x)";
    if (std::isnan(p.first_difference))
        s << "; first at row " << p.first_failed_row << ", where C·x is NaN or Inf (unwritten or non-finite elements)";
    else
        s << " beyond the bound; first at row " << p.first_failed_row << ": difference " << p.first_difference
          << ", bound " << p.first_bound;
    return s.str();
}

std::string sample_words(const SampleTally &t, const char *precision) {
    std::ostringstream s;
    const long long bad = t.out_of_bound + t.non_finite + t.unwritten;
    s << bad << " of " << t.samples << " sampled elements wrong (";
    s << t.unwritten << " never written, " << t.non_finite << " NaN/Inf, " << t.out_of_bound << " outside the "
      << precision << " bound)";
    if (t.first_bad) {
        s.precision(9);
        s << "; first at row " << t.first_bad->row << ", col " << t.first_bad->col << ": expected "
          << t.first_bad->expected << ", got " << t.first_bad->got;
    }
    return s.str();
}

} // namespace

std::string describe(const Verification &v) {
    std::string text = std::to_string(v.calls) + (v.calls == 1 ? " call" : " calls");
    if (v.calls == 0) return text;
    text += ": " + std::to_string(v.full_checks) + " against the full FP64 reference";
    if (v.projected_checks > 0)
        text += ", " + std::to_string(v.projected_checks) + " by " + std::to_string(v.projection_vectors) +
                " Freivalds projections and " + std::to_string(v.sampled_elements) + " sampled elements each";
    return text;
}

Judgement judge_timed_call(const TimedCallCheck &c, Precision precision, int N, long long elements) {
    OutputCheck integrity_only;
    Judgement j = judge_output(integrity_only, c.integrity);
    std::vector<std::string> problems;
    if (j.verdict != Verdict::AC) problems.push_back(j.detail);
    const char *name = precision == Precision::FP32 ? "FP32" : precision == Precision::TF32 ? "TF32" : "BF16";
    if (c.projection.rows_failed > 0) problems.push_back(projection_words(c.projection));
    const SampleTally &t = c.samples;
    if (t.out_of_bound + t.non_finite + t.unwritten > 0) problems.push_back(sample_words(t, name));
    if (elements >= sampled_normwise_min_elements && t.samples >= sampled_elements && t.reference_sq > 0) {
        const double normwise = std::sqrt(t.error_sq / t.reference_sq);
        const double limit = sampled_normwise_slack * normwise_tolerance(N, precision);
        if (normwise > limit) {
            std::ostringstream s;
            s.precision(3);
            s << "normwise error of " << t.samples << " sampled elements " << normwise << " is "
              << normwise / normwise_tolerance(N, precision) << "× the " << name << " bound (" << sampled_normwise_slack
              << "× allowed for a sample): error is " << error_class(normwise, N);
            problems.push_back(s.str());
        }
    }
    j = Judgement{};
    if (problems.empty()) return j;
    j.verdict = Verdict::WA;
    for (const auto &p : problems) j.detail += (j.detail.empty() ? "" : "; ") + p;
    return j;
}

ProjectionTally project_on_cpu(const std::vector<float> &A, const std::vector<float> &B, const float *C, int M, int N,
                               int K, const std::vector<double> &x, Precision precision) {
    ProjectionTally p;
    p.vectors = 1;
    p.rows_checked = M;
    std::vector<double> y(N, 0.0), y_magnitude(N, 0.0);
    for (int k = 0; k < N; ++k)
        for (int j = 0; j < K; ++j) {
            const double b = B[static_cast<std::size_t>(k) * K + j];
            y[k] += b * x[j];
            y_magnitude[k] += std::fabs(b) * std::fabs(x[j]);
        }
    const double per_magnitude = elementwise_bound(N, 1.0, precision);
    for (int i = 0; i < M; ++i) {
        double product = 0, magnitude = 0, output = 0, output_magnitude = 0;
        for (int k = 0; k < N; ++k) {
            const double a = A[static_cast<std::size_t>(i) * N + k];
            product += a * y[k];
            magnitude += std::fabs(a) * y_magnitude[k];
        }
        for (int j = 0; j < K; ++j) {
            const double c = C[static_cast<std::size_t>(i) * K + j];
            output += c * x[j];
            output_magnitude += std::fabs(c) * std::fabs(x[j]);
        }
        const double difference = std::fabs(output - product);
        const double bound = projection_bound(N, K, magnitude, output_magnitude, per_magnitude);
        const bool failed = !(difference <= bound); // NaN fails
        p.worst_ratio = std::max(p.worst_ratio, failed && !std::isfinite(difference) ? INFINITY
                                                : bound > 0                          ? difference / bound
                                                : difference > 0                     ? INFINITY
                                                                                     : 0.0);
        if (!failed) continue;
        if (p.rows_failed++ == 0) {
            p.first_failed_row = i;
            p.first_difference = std::isfinite(difference) ? difference : NAN;
            p.first_bound = bound;
        }
    }
    return p;
}

SampleTally sample_on_cpu(const std::vector<float> &A, const std::vector<float> &B, const float *C, int M, int N, int K,
                          const std::vector<std::pair<long long, long long>> &elements, Precision precision) {
    (void)M;
    SampleTally t;
    const double per_magnitude = elementwise_bound(N, 1.0, precision);
    for (const auto &[row, col] : elements) {
        double r = 0, magnitude = 0;
        for (int k = 0; k < N; ++k) {
            const double a = A[static_cast<std::size_t>(row) * N + k], b = B[static_cast<std::size_t>(k) * K + col];
            r += a * b;
            magnitude += std::fabs(a) * std::fabs(b);
        }
        std::uint32_t bits;
        std::memcpy(&bits, &C[static_cast<std::size_t>(row) * K + col], sizeof bits);
        add_sample(t, row, col, bits, r, per_magnitude * magnitude);
    }
    return t;
}

void add_sample(SampleTally &t, long long row, long long col, std::uint32_t bits, double reference, double bound) {
    float c;
    std::memcpy(&c, &bits, sizeof c);
    const ElementVerdict v = check_element(bits, c, reference, bound);
    ++t.samples;
    t.unwritten += v.state == ElementState::Unwritten;
    t.non_finite += v.state == ElementState::NonFinite;
    t.out_of_bound += v.state == ElementState::OutOfBound;
    if (v.state != ElementState::Right && !t.first_bad) t.first_bad = BadElement{row, col, reference, c, bound};
    if (v.state == ElementState::Right || v.state == ElementState::OutOfBound) {
        t.error_sq += v.error * v.error;
        t.reference_sq += reference * reference;
    }
}

} // namespace gemm
