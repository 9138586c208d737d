#include "verification/check.hpp"
#include "verification/diagnosis.hpp"

#include <cmath>
#include <cstring>
#include <sstream>

namespace gemm {

double gamma_n(int N) {
    const double nu = N * fp32_unit_roundoff;
    return nu / (1.0 - nu);
}

double elementwise_bound(int N, double magnitude, Precision p) {
    const double up = input_unit_roundoff(p);
    return elementwise_safety_factor * (gamma_n(N) + 2 * up + up * up) * magnitude;
}

double normwise_tolerance(int N, Precision p) {
    return normwise_factor * (fp32_unit_roundoff * std::sqrt(static_cast<double>(N)) + input_unit_roundoff(p));
}

std::string error_class(double normwise_error, int N) {
    for (const auto &t : precisions())
        if (normwise_error <= normwise_tolerance(N, t.precision)) return t.error_class;
    return "worse than BF16";
}

OutputCheck compare_output(const float *C, const Reference &ref, Precision p) {
    OutputCheck out;
    out.precision = p;
    out.elements = static_cast<long long>(ref.value.size());
    BadElementCounts bad(ref.M, ref.K);
    const double bound_per_magnitude = elementwise_bound(ref.N, 1.0, p);
    double error_sq = 0, reference_sq = 0;
    for (long long i = 0; i < out.elements; ++i) {
        const double r = ref.value[i];
        reference_sq += r * r;
        std::uint32_t bits;
        std::memcpy(&bits, &C[i], sizeof bits);
        const double bound = bound_per_magnitude * ref.magnitude[i];
        const ElementVerdict v = check_element(bits, C[i], r, bound);
        const long long row = i / ref.K, col = i % ref.K;
        const BadElement here{row, col, r, C[i], bound};
        switch (v.state) {
        case ElementState::Unwritten:
            if (out.unwritten++ == 0) out.first_unwritten = here;
            break;
        case ElementState::NonFinite:
            if (out.non_finite++ == 0) out.first_non_finite = here;
            break;
        case ElementState::OutOfBound:
            if (out.out_of_bound++ == 0) out.first_out_of_bound = here;
            break;
        case ElementState::Right: break;
        }
        if (v.state != ElementState::Right) bad.add(row, col, v.state == ElementState::Unwritten);
        error_sq += v.error * v.error;
        out.elementwise_ratio = std::max(out.elementwise_ratio, v.ratio);
    }
    finish_output_check(out, ref.N, error_sq, reference_sq, bad);
    return out;
}

void finish_output_check(OutputCheck &o, int N, double error_sq, double reference_sq, const BadElementCounts &bad) {
    o.normwise_error = reference_sq > 0 ? std::sqrt(error_sq / reference_sq) : std::sqrt(error_sq);
    o.normwise_ratio = o.normwise_error / normwise_tolerance(N, o.precision);
    o.error_class = error_class(o.normwise_error, N);
    if (bad.total() > 0) {
        o.map = bad.map();
        o.pattern = bad.pattern();
    }
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
    if (g.bias_modified) problems.push_back("modified the bias (inputs must stay unchanged)");
    if (g.factor_modified) problems.push_back("modified the factor matrix (inputs must stay unchanged)");
    if (g.floats_written_before_C > 0)
        problems.push_back("wrote outside C (" + std::to_string(g.floats_written_before_C) +
                           " floats before the start)");
    if (g.floats_written_after_C > 0)
        problems.push_back("wrote outside C (" + std::to_string(g.floats_written_after_C) + " floats after the end)");
    if (o.unwritten > 0)
        problems.push_back(count_of(o.unwritten, o.elements) + " never written; first at " +
                           position(*o.first_unwritten));
    if (o.non_finite > 0) {
        std::ostringstream s;
        s << count_of(o.non_finite, o.elements) << " NaN/Inf where the reference is finite; first at "
          << position(*o.first_non_finite) << ": expected " << o.first_non_finite->expected << ", got "
          << o.first_non_finite->got;
        problems.push_back(s.str());
    }
    const std::string precision = o.precision == Precision::FP32   ? "FP32"
                                  : o.precision == Precision::TF32 ? "TF32"
                                                                   : "BF16";
    if (o.exact && o.out_of_bound > 0) {
        const auto &e = *o.first_out_of_bound;
        std::ostringstream s;
        s << count_of(o.out_of_bound, o.elements) << " differ from the exact answer; first at " << position(e)
          << ": expected " << e.expected << ", got " << e.got;
        if (!o.explanation.empty()) s << " (" << o.explanation << ")";
        problems.push_back(s.str());
    } else if (o.out_of_bound > 0) {
        const auto &e = *o.first_out_of_bound;
        std::ostringstream s;
        s.precision(9);
        s << count_of(o.out_of_bound, o.elements) << " outside the " << precision << " error bound; first at "
          << position(e) << ": expected " << e.expected << ", got " << e.got;
        s.precision(2);
        s << ", bound ±" << e.bound;
        problems.push_back(s.str());
    }
    if (!o.exact && o.normwise_ratio > 1 && o.non_finite == 0 && o.unwritten == 0) {
        std::ostringstream s;
        s.precision(3);
        s << "normwise error " << o.normwise_error << " is " << o.normwise_ratio << "× the " << precision
          << " bound: error is " << o.error_class;
        for (const auto &t : precisions())
            if (o.precision == Precision::FP32 && t.precision != Precision::FP32 && o.error_class == t.error_class)
                s << " (precision below FP32: tensor cores in " << std::string(t.error_class).substr(0, 4)
                  << " mode? --precision " << t.name << " judges such solutions)";
        problems.push_back(s.str());
    }
    if (!o.pattern.empty()) problems.push_back("where: " + o.pattern);
    Judgement j;
    if (problems.empty()) return j;
    j.verdict = Verdict::WA;
    for (const auto &p : problems) j.detail += (j.detail.empty() ? "" : "; ") + p;
    return j;
}

} // namespace gemm
