#include "check.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace gemm {

double gamma_n(int N) {
    const double nu = N * fp32_unit_roundoff;
    return nu / (1.0 - nu);
}

double elementwise_bound(int N, double magnitude) { return elementwise_safety_factor * gamma_n(N) * magnitude; }

double normwise_tolerance(int N) { return normwise_factor * fp32_unit_roundoff * std::sqrt(static_cast<double>(N)); }

OutputCheck compare_output(const float *C, const Reference &ref) {
    OutputCheck out;
    out.elements = static_cast<long long>(ref.value.size());
    const double gamma = elementwise_safety_factor * gamma_n(ref.N);
    double error_sq = 0, reference_sq = 0;
    for (long long i = 0; i < out.elements; ++i) {
        const double r = ref.value[i];
        reference_sq += r * r;
        std::uint32_t bits;
        std::memcpy(&bits, &C[i], sizeof bits);
        const double bound = gamma * ref.magnitude[i];
        const BadElement here{i / ref.K, i % ref.K, r, C[i], bound};
        if (bits == poison_bits) {
            if (out.unwritten++ == 0) out.first_unwritten = here;
            continue;
        }
        if (!std::isfinite(C[i])) {
            if (out.non_finite++ == 0) out.first_non_finite = here;
            continue;
        }
        const double error = std::fabs(static_cast<double>(C[i]) - r);
        error_sq += error * error;
        if (error > bound) {
            if (out.out_of_bound++ == 0) out.first_out_of_bound = here;
        }
        if (error > 0) out.elementwise_ratio = std::max(out.elementwise_ratio, bound > 0 ? error / bound : INFINITY);
    }
    const double relative = reference_sq > 0 ? std::sqrt(error_sq / reference_sq) : std::sqrt(error_sq);
    out.normwise_ratio = relative / normwise_tolerance(ref.N);
    return out;
}

namespace {

std::string position(const BadElement &e) {
    std::ostringstream s;
    s << "row " << e.row << ", col " << e.col;
    return s.str();
}

std::string count_of(long long n, long long total) {
    return std::to_string(n) + " of " + std::to_string(total) + " element" + (total == 1 ? "" : "s");
}

} // namespace

Judgement judge_output(const OutputCheck &o, const IntegrityCheck &g) {
    std::vector<std::string> problems;
    if (g.A_modified) problems.push_back("modified A (inputs must stay unchanged)");
    if (g.B_modified) problems.push_back("modified B (inputs must stay unchanged)");
    if (g.floats_written_before_C > 0)
        problems.push_back("wrote outside C (" + std::to_string(g.floats_written_before_C) + " floats before the start)");
    if (g.floats_written_after_C > 0)
        problems.push_back("wrote outside C (" + std::to_string(g.floats_written_after_C) + " floats after the end)");
    if (o.unwritten > 0)
        problems.push_back(count_of(o.unwritten, o.elements) + " never written; first at " + position(*o.first_unwritten));
    if (o.non_finite > 0) {
        std::ostringstream s;
        s << count_of(o.non_finite, o.elements) << " NaN/Inf where the reference is finite; first at "
          << position(*o.first_non_finite) << ": expected " << o.first_non_finite->expected << ", got "
          << o.first_non_finite->got;
        problems.push_back(s.str());
    }
    if (o.out_of_bound > 0) {
        const auto &e = *o.first_out_of_bound;
        std::ostringstream s;
        s.precision(9);
        s << count_of(o.out_of_bound, o.elements) << " outside the FP32 error bound; first at " << position(e)
          << ": expected " << e.expected << ", got " << e.got;
        s.precision(2);
        s << ", bound ±" << e.bound;
        problems.push_back(s.str());
    }
    if (o.normwise_ratio > 1 && o.non_finite == 0 && o.unwritten == 0) {
        std::ostringstream s;
        s.precision(3);
        s << "normwise error is " << o.normwise_ratio
          << "× the FP32 bound 4·u·√N: precision below FP32 (TF32, BF16 or FP16 arithmetic?)";
        problems.push_back(s.str());
    }
    Judgement j;
    if (problems.empty()) return j;
    j.verdict = Verdict::WA;
    for (const auto &p : problems) j.detail += (j.detail.empty() ? "" : "; ") + p;
    return j;
}

std::optional<std::string> expected_output_mismatch(const TestCase &tc, const Reference &ref) {
    if (tc.expected_C.empty()) return std::nullopt;
    for (std::size_t i = 0; i < tc.expected_C.size(); ++i) {
        // A setter writes a handful of decimal digits: allow that rounding on top of the bound.
        const double tolerance = elementwise_bound(tc.N, ref.magnitude[i]) + 1e-6 * std::fabs(ref.value[i]);
        if (std::fabs(tc.expected_C[i] - ref.value[i]) > tolerance) {
            std::ostringstream s;
            s.precision(9);
            s << tc.path << ":" << tc.expected_C_row_lines.at(i / tc.K)
              << ": expected C at row " << i / tc.K << ", col " << i % tc.K << " is " << tc.expected_C[i]
              << " but A·B is " << ref.value[i];
            return s.str();
        }
    }
    return std::nullopt;
}

} // namespace gemm
