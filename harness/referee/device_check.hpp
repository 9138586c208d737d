// The judge's per-element work on the GPU, so the host receives only reductions and
// the few elements a report names: the full check of C against the FP64 reference,
// the projected check of a timed call (verification/timed_check.hpp), and input integrity.
#pragma once

#include "common/epilogue.hpp"
#include "common/requantization.hpp"
#include "referee/cuda_check.hpp"
#include "verification/check.hpp"
#include "verification/dtype_bound.hpp"
#include "verification/timed_check.hpp"

#include <cstdint>

namespace gemm {

// C against R element by element, with the bound c·γ_N·magnitude; the same figures
// as compare_output() on the CPU. A batch's C is checked as its M rows stacked (M = batch·M).
OutputCheck check_output_on_device(const float *C, const double *R, const double *magnitude, int M, int N, int K,
                                   Precision precision);

// C against the epilogue of the product R (M×K, its bound's magnitude beside it): R and
// magnitude are carried through the steps in place (verification/epilogue_bound.hpp), with the
// bias per column and the factor per element (null where the epilogue has none), and C is
// checked against the result as check_output_on_device checks a product, its normwise test
// the epilogue's. A sum's C is its one number, against the sum of the sigmoids and its bound.
// The site's allclose is reported beside it where `site` is given.
OutputCheck check_epilogue_output_on_device(const float *C, double *R, double *magnitude, const float *bias,
                                            const float *factor, const Epilogue &epilogue, int M, int N, int K,
                                            Precision precision, const std::optional<SiteTolerance> &site);

// C against α·R + β·C₀ (C₀ null where C is not read) rounded to `output`, each element's bound
// that of verification/dtype_bound.hpp (R and magnitude carried in place, as above), the
// normwise test the scaled product's. C is the output widened to floats.
OutputCheck check_scaled_output_on_device(const float *C, double *R, double *magnitude, const float *C0,
                                          const ScaledProduct &scaling, int M, int N, int K, Precision precision,
                                          const std::optional<SiteTolerance> &site);

// An int8 output (C widened to floats, M×K) against the exact answer: R, the exact sums in
// FP64, is requantized in place (common/requantization.hpp) and every element must be equal.
// The first wrong element is explained from its sum, recomputed from its row of A and column
// of B as the checks read them (less the zero points).
OutputCheck check_requantized_output_on_device(const float *C, double *R, double *magnitude, const float *A,
                                               const float *B, const Requantization &q, int M, int N, int K,
                                               const std::optional<SiteTolerance> &site);

// The site's own allclose over C against R (n elements), as site_allclose() on the CPU.
SiteAllclose site_allclose_on_device(const float *C, const double *R, std::size_t n, SiteTolerance t);

// Copies float values into doubles (their absolute values when `absolute`), exactly.
void widen_on_device(const float *values, std::size_t n, bool absolute, double *wide);

// Device scratch for the checks of one shape, allocated once per case. A batch's operands are
// its products' one after another (A batch·M×N, B batch·N×K, C batch·M×K).
class ProjectionWorkspace {
  public:
    ProjectionWorkspace(int M, int N, int K, long long batch = 1);
    // Freivalds projections with `projection_vectors` random ±1 vectors and
    // `sampled_elements` exactly recomputed elements, all drawn from `seed`.
    TimedCallCheck check(const float *A, const float *B, const float *C, std::uint64_t seed, Precision precision);

  private:
    ProjectionTally project(const float *A, const float *B, const float *C, std::uint64_t seed, Precision precision);
    SampleTally sample(const float *A, const float *B, const float *C, std::uint64_t seed, Precision precision);

    int M_, N_, K_;
    long long batch_;
    DeviceArray<double> x_, y_, y_magnitude_, product_, magnitude_, output_, output_magnitude_;
    DeviceArray<double> sample_values_; // per sample: reference, magnitude, C
    DeviceArray<long long> sample_positions_;
    DeviceArray<unsigned long long> tally_;
};

} // namespace gemm
