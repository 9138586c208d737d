#include "verification/requantization_explanation.hpp"
#include "common/text.hpp"

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

std::string explain_requantized_element(const Requantization &q, double sum, int got) {
    const float scaled = q.scaled(sum);
    std::string text = formatted("the exact sum %.0f, ×scale_A ×scale_B ÷scale_C in FP32, is %.9g; rounded half "
                                 "to even, + zero_point_C %d and clamped: %d",
                                 sum, static_cast<double>(scaled), q.zero_point_C, q.output(sum));
    for (const Slip &slip : slips)
        if (slip.stores(q, sum) == got && got != q.output(sum))
            return text + "; got " + std::to_string(got) + ", as with " + slip.what;
    return text + "; got " + std::to_string(got) + ", which none of the usual slips gives (is the sum exact?)";
}

} // namespace gemm
