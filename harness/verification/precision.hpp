// The arithmetics a solution may be judged against, in one table: each one's name on the
// command line and in the report, how coarsely it rounds the inputs (which widens the
// bounds of check.hpp), its class name for a measured error, and the words the report uses
// for its bounds. FP32 is the default; TF32 and BF16 admit tensor-core solutions.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace gemm {

enum class Precision { FP32, TF32, BF16 };

struct PrecisionTraits {
    Precision precision;
    const char *name;             // --precision and the report: "fp32"
    double input_unit_roundoff;   // u_p = 2^-(p+1) for p stored mantissa bits; 0 for FP32
    const char *error_class;      // an error within its normwise bound is "TF32-like"
    const char *elementwise_text; // the bounds in words, for the report
    const char *normwise_text;
    const char *console_note; // said above the table when not the default; "" for FP32
};

// Every precision, most precise first.
const std::vector<PrecisionTraits> &precisions();
const PrecisionTraits &traits_of(Precision p);
const char *precision_name(Precision p);
std::optional<Precision> parse_precision(const std::string &name);
std::vector<std::string> precision_names(); // for --precision's check and help
double input_unit_roundoff(Precision p);    // 0 for FP32, 2^-11 for TF32, 2^-8 for BF16

} // namespace gemm
