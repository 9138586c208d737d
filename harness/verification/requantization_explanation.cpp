#include "verification/requantization_explanation.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gemm {

namespace {

int clamped(double shifted) {
    return shifted < Requantization::lowest    ? Requantization::lowest
           : shifted > Requantization::highest ? Requantization::highest
                                               : static_cast<int>(shifted);
}

// What a kernel that slipped in one way stores; nullopt-free: each returns the int8 it would.
struct Slip {
    const char *what;
    int (*stores)(const Requantization &q, double sum);
};

const Slip slips[] = {
    {"rounding half away from zero (roundf); the problem rounds half to even (rintf)",
     [](const Requantization &q, double sum) {
         return clamped(static_cast<double>(std::round(q.scaled(sum))) + q.zero_point_C);
     }},
    {"the scales folded into one factor (scale_A·scale_B/scale_C); the problem multiplies by each in turn",
     [](const Requantization &q, double sum) {
         const float factor = q.scale_A * q.scale_B / q.scale_C;
         return clamped(static_cast<double>(std::rint(static_cast<float>(sum) * factor)) + q.zero_point_C);
     }},
    {"the scaled value truncated toward zero instead of rounded",
     [](const Requantization &q, double sum) {
         return clamped(static_cast<double>(std::trunc(q.scaled(sum))) + q.zero_point_C);
     }},
    {"zero_point_C not added",
     [](const Requantization &q, double sum) { return clamped(static_cast<double>(std::rint(q.scaled(sum)))); }},
    {"no clamp to [-128, 127]: the value wrapped around when stored as int8",
     [](const Requantization &q, double sum) {
         const double shifted = static_cast<double>(std::rint(q.scaled(sum))) + q.zero_point_C;
         if (std::fabs(shifted) > 2147483647.0) return q.output(sum);
         return static_cast<int>(static_cast<std::int8_t>(static_cast<std::int32_t>(shifted)));
     }},
};

} // namespace

namespace {

// FP32 holds every integer up to 2^24; past it, adding an int8 product rounds.
constexpr double fp32_exact_integers = 16777216.0;

struct Sums {
    double exact = 0;           // in double: integers below 2^53, exact in any order
    double fp32 = 0;            // first to last in FP32, as a one-thread-per-element kernel adds
    double largest_partial = 0; // the largest |partial sum| on the way
};

Sums sums_of(const std::vector<double> &terms) {
    Sums s;
    float fp32 = 0;
    for (const double term : terms) {
        s.exact += term;
        fp32 += static_cast<float>(term); // |term| ≤ 65,536: exact in FP32
        s.largest_partial = std::max(s.largest_partial, std::fabs(s.exact));
    }
    s.fp32 = fp32;
    return s;
}

} // namespace

std::string explain_requantized_element(const Requantization &q, const std::vector<double> &terms, int got) {
    const Sums sums = sums_of(terms);
    const double sum = sums.exact;
    const float scaled = q.scaled(sum);
    std::string text = formatted("the exact sum %.0f, ×scale_A ×scale_B ÷scale_C in FP32, is %.9g; rounded half "
                                 "to even, + zero_point_C %d and clamped: %d",
                                 sum, static_cast<double>(scaled), q.zero_point_C, q.output(sum));
    // First, as the likelier story where it fits: a sum kept in FP32 lands close to the exact
    // one, and the truncation slip can give the same int8 by chance.
    const std::string fp32_slip = "; the sum's partial sums pass 2^24 (16777216), where FP32 stops holding every "
                                  "integer: int8 products are summed in int32";
    const bool past_fp32 = sums.largest_partial > fp32_exact_integers;
    if (past_fp32 && q.output(sums.fp32) == got)
        return text + "; got " + std::to_string(got) + ", as with the sum kept in FP32" + fp32_slip;
    for (const Slip &slip : slips)
        if (slip.stores(q, sum) == got && got != q.output(sum))
            return text + "; got " + std::to_string(got) + ", as with " + slip.what;
    if (past_fp32)
        return text + "; got " + std::to_string(got) + ", as a sum kept in FP32 (in another order) may give" +
               fp32_slip;
    return text + "; got " + std::to_string(got) + ", which none of the usual slips gives (is the sum exact?)";
}

} // namespace gemm
