#include "verification/precision.hpp"

namespace gemm {

const std::vector<PrecisionTraits> &precisions() {
    // Each input rounded to p mantissa bits adds 2·u_p per product to the FP32 summation
    // term (check.hpp); TF32 measured 0.53·u_p and BF16 1.4·u_p normwise on zero-mean data.
    static const std::vector<PrecisionTraits> table = {
        {Precision::FP32, "fp32", 0, "FP32-like", "2·γ_N·(|A||B|)ij", "4·u·√N", ""},
        {Precision::TF32, "tf32", 0x1p-11, "TF32-like", "2·(γ_N + 2·u_p + u_p²)·(|A||B|)ij, u_p = 2^-11",
         "4·u·√N + 4·u_p", "precision: judged as tf32 (tensor cores admitted)"},
        {Precision::BF16, "bf16", 0x1p-8, "BF16-like", "2·(γ_N + 2·u_p + u_p²)·(|A||B|)ij, u_p = 2^-8",
         "4·u·√N + 4·u_p", "precision: judged as bf16 (tensor cores admitted)"},
    };
    return table;
}

const PrecisionTraits &traits_of(Precision p) {
    for (const auto &t : precisions())
        if (t.precision == p) return t;
    return precisions().front();
}

const char *precision_name(Precision p) { return traits_of(p).name; }

std::optional<Precision> parse_precision(const std::string &name) {
    for (const auto &t : precisions())
        if (name == t.name) return t.precision;
    return std::nullopt;
}

std::vector<std::string> precision_names() {
    std::vector<std::string> names;
    for (const auto &t : precisions()) names.push_back(t.name);
    return names;
}

double input_unit_roundoff(Precision p) { return traits_of(p).input_unit_roundoff; }

} // namespace gemm
