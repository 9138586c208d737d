#include "verification/site_allclose.hpp"

namespace gemm {

SiteAllclose site_allclose(const float *C, const double *R, std::size_t n, SiteTolerance t) {
    SiteAllclose s;
    s.tolerance = t;
    s.elements = static_cast<long long>(n);
    for (std::size_t i = 0; i < n; ++i)
        if (!within_site_allclose(C[i], R[i], t)) ++s.outside;
    return s;
}

} // namespace gemm
