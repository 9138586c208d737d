// What the problem's own site would say of an output: the `allclose` its checker applies
// (|C − R| ≤ atol + rtol·|R| for every element, a NaN never close), with the site's atol
// and rtol from the problem's descriptor. Reported beside the verdict, never deciding it:
// users want to know whether the site would pass what the judge passes or fails. Written
// once for the CPU (site_allclose.cpp) and the GPU (referee/device_check.cu). R here is the
// judge's FP64 product, not the site's own (often FP32 or TF32) reference.
#pragma once

#include "common/portable.hpp"

#include <cstddef>

namespace gemm {

struct SiteTolerance {
    double atol = 0, rtol = 0;
    bool operator==(const SiteTolerance &o) const { return atol == o.atol && rtol == o.rtol; }
};

// The elements of one output outside the site's allclose.
struct SiteAllclose {
    SiteTolerance tolerance;
    long long elements = 0, outside = 0;
    bool passes() const { return outside == 0; }
};

GEMM_HOST_DEVICE inline bool within_site_allclose(float got, double expected, SiteTolerance t) {
    const double value = got;
    if (value == expected) return true; // exact, an infinity of the right sign included
    const double error = value > expected ? value - expected : expected - value;
    const double magnitude = expected < 0 ? -expected : expected;
    // An infinity not equal to R, or an infinite R, is never close (as torch.allclose): x − x
    // is 0 only for a finite x.
    if (!(error - error == 0) || !(magnitude - magnitude == 0)) return false;
    return error <= t.atol + t.rtol * magnitude;
}

// Over the n elements of C against R, on the CPU.
SiteAllclose site_allclose(const float *C, const double *R, std::size_t n, SiteTolerance t);

} // namespace gemm
