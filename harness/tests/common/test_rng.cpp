// SplitMix64 and the documented mapping to floats. Every expected constant below was
// computed by an independent Python implementation of the specification (rng.hpp),
// never by the code under test.
#include <doctest/doctest.h>

#include "common/rng.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using namespace gemm;

TEST_CASE("SplitMix64 from state 0 produces the reference sequence") {
    SplitMix64 g(0);
    CHECK(g.next() == 0xE220A8397B1DCDAFull);
    CHECK(g.next() == 0x6E789E6AA1B965F4ull);
    CHECK(g.next() == 0x06C45D188009454Full);
    CHECK(g.next() == 0xF88BB8A8724C81ECull);
}

TEST_CASE("SplitMix64 from state 1234567 produces the reference sequence") {
    SplitMix64 g(1234567);
    CHECK(g.next() == 0x599ED017FB08FC85ull);
    CHECK(g.next() == 0x2C73F08458540FA5ull);
    CHECK(g.next() == 0x883EBCE5A3F27C77ull);
    CHECK(g.next() == 0x3FBEF740E9177B3Full);
}

TEST_CASE("two generators with the same state produce the same stream") {
    SplitMix64 a(987654321), b(987654321);
    int differences = 0;
    for (int i = 0; i < 100; ++i) differences += a.next() != b.next();
    CHECK(differences == 0);
}

TEST_CASE("the stream state of a matrix is seed times 16 plus twice the set plus the matrix") {
    CHECK(stream_state(42, 0, MatrixId::A) == 672u);
    CHECK(stream_state(42, 0, MatrixId::B) == 673u);
    CHECK(stream_state(42, 1, MatrixId::A) == 674u);
    CHECK(stream_state(42, 1, MatrixId::B) == 675u);
    CHECK(stream_state(0, 0, MatrixId::A) == 0u);
}

TEST_CASE("map_to_value uses the top 24 bits of the word") {
    GeneratorSpec uniform01{Distribution::Uniform, 0.0, 1.0, 1};
    // bits >> 40 == 0 → u = 0 → low
    CHECK(map_to_value(0x000000FFFFFFFFFFull, uniform01) == 0.0f);
    // bits >> 40 == 2^23 → u = 0.5
    CHECK(map_to_value(0x8000000000000000ull, uniform01) == 0.5f);
    // the largest u is 1 − 2^-24, which rounds to 1.0f in float but never exceeds high
    CHECK(map_to_value(0xFFFFFFFFFFFFFFFFull, GeneratorSpec{Distribution::Uniform, -1.0, 1.0, 1}) ==
          static_cast<float>(-1.0 + 2.0 * (1.0 - 0x1p-24)));
    GeneratorSpec ints{Distribution::Integers, -4.0, 4.0, 1};
    CHECK(map_to_value(0, ints) == -4.0f);
    CHECK(map_to_value(0x8000000000000000ull, ints) == 0.0f); // -4 + floor(0.5·9) = 0
    CHECK(map_to_value(0xFFFFFFFFFFFFFFFFull, ints) == 4.0f); // -4 + floor((1-2^-24)·9) = 4
}

TEST_CASE("generate_matrix for uniform -1 1 seed 42 set 0 matrix A starts with the documented values") {
    GeneratorSpec spec{Distribution::Uniform, -1.0, 1.0, 42};
    const auto a = generate_matrix(spec, checked_input_set, MatrixId::A, 2, 2);
    REQUIRE(a.size() == 4);
    CHECK(a[0] == -0x1.ee2ad8p-2f); // -0.4825853109359741
    CHECK(a[1] == 0x1.0b738cp-1f);  //  0.522365927696228
    CHECK(a[2] == -0x1.94b16p-4f);  // -0.09880197048187256
    CHECK(a[3] == 0x1.a95e1p-2f);   //  0.41539788246154785
}

TEST_CASE("matrix B and the timed input set have their own documented streams") {
    GeneratorSpec spec{Distribution::Uniform, -1.0, 1.0, 42};
    const auto b = generate_matrix(spec, checked_input_set, MatrixId::B, 1, 4);
    CHECK(b[0] == -0x1.c52510p-3f);
    CHECK(b[1] == 0x1.6dfbp-1f);
    CHECK(b[2] == -0x1.c2dccp-3f);
    CHECK(b[3] == -0x1.c607fcp-1f);
    const auto timed_a = generate_matrix(spec, timed_input_set, MatrixId::A, 4, 1);
    CHECK(timed_a[0] == -0x1.bf976p-2f);
    CHECK(timed_a[1] == 0x1.603248p-2f);
    CHECK(timed_a[2] == -0x1.7c492p-2f);
    CHECK(timed_a[3] == 0x1.6a47ap-3f);
}

TEST_CASE("the shape only decides how many values come from the stream, in row-major order") {
    GeneratorSpec spec{Distribution::Uniform, -1.0, 1.0, 42};
    const auto wide = generate_matrix(spec, 0, MatrixId::A, 3, 5);
    const auto tall = generate_matrix(spec, 0, MatrixId::A, 5, 3);
    const auto flat = generate_matrix(spec, 0, MatrixId::A, 1, 15);
    CHECK(wide.size() == 15);
    CHECK(wide == tall);
    CHECK(wide == flat);
}

TEST_CASE("input sets and matrices draw from different streams") {
    GeneratorSpec spec{Distribution::Uniform, -1.0, 1.0, 7};
    const auto a0 = generate_matrix(spec, 0, MatrixId::A, 16, 16);
    const auto b0 = generate_matrix(spec, 0, MatrixId::B, 16, 16);
    const auto a1 = generate_matrix(spec, 1, MatrixId::A, 16, 16);
    const auto b1 = generate_matrix(spec, 1, MatrixId::B, 16, 16);
    CHECK(a0 != b0);
    CHECK(a0 != a1);
    CHECK(a0 != b1);
    CHECK(b0 != a1);
    CHECK(b0 != b1);
    CHECK(a1 != b1);
    GeneratorSpec other_seed = spec;
    other_seed.seed = 8;
    CHECK(generate_matrix(other_seed, 0, MatrixId::A, 16, 16) != a0);
    // seed 7 set 0 matrix B must not alias any stream of seed 8
    for (int set : {0, 1})
        for (MatrixId m : {MatrixId::A, MatrixId::B}) CHECK(generate_matrix(other_seed, set, m, 16, 16) != b0);
}

TEST_CASE("uniform values lie between low and high and cover the range") {
    GeneratorSpec spec{Distribution::Uniform, -3.0, 5.0, 123};
    const auto v = generate_matrix(spec, 0, MatrixId::A, 100, 100);
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    CHECK(*lo >= -3.0f);
    CHECK(*hi <= 5.0f);
    // 10^4 draws: the extremes come within 0.01 of the ends
    CHECK(*lo < -2.99f);
    CHECK(*hi > 4.99f);
    double mean = 0;
    for (float x : v) mean += x;
    mean /= static_cast<double>(v.size());
    CHECK(mean == doctest::Approx(1.0).epsilon(0.05));
}

TEST_CASE("integer values are whole numbers from low to high and every value occurs") {
    GeneratorSpec spec{Distribution::Integers, -4.0, 4.0, 3};
    const auto v = generate_matrix(spec, 0, MatrixId::A, 50, 40);
    std::vector<int> seen(9, 0);
    int fractional = 0, outside = 0;
    for (float x : v) {
        if (x != std::floor(x))
            ++fractional;
        else if (x < -4.0f || x > 4.0f)
            ++outside;
        else
            ++seen[static_cast<int>(x) + 4];
    }
    CHECK(fractional == 0);
    CHECK(outside == 0);
    for (int count : seen) CHECK(count > 0);
}

TEST_CASE("integers for the sample testcase seed 3 follow the documented mapping") {
    // low + floor(u·(high − low + 1)) for seed 3, set 0, matrix A, from the Python model.
    GeneratorSpec spec{Distribution::Integers, -4.0, 4.0, 3};
    const auto v = generate_matrix(spec, 0, MatrixId::A, 1, 8);
    const std::vector<float> expected{-4, 1, 0, -1, -2, -4, 1, 0};
    CHECK(v == expected);
}

TEST_CASE("a degenerate integer range of one value yields only that value") {
    GeneratorSpec spec{Distribution::Integers, 5.0, 5.0, 9};
    const auto v = generate_matrix(spec, 0, MatrixId::B, 10, 10);
    CHECK(v == std::vector<float>(100, 5.0f));
}

// Expected values below come from an independent Python implementation of the
// generator as testcases/README.md specifies it.
TEST_CASE("normal data is the sum of twelve uniform draws minus six, pinned for seed 5") {
    GeneratorSpec spec{Distribution::Normal, 0, 0, 5};
    const auto a = generate_matrix(spec, 0, MatrixId::A, 1, 4);
    CHECK(a == std::vector<float>{0x1.f85a7cp-2f, -0x1.6622cp-1f, 0x1.71c254p-2f, -0x1.0191a4p+0f});
}

TEST_CASE("mixed data scales each row and column by a power of two, pinned for seed 6") {
    GeneratorSpec spec{Distribution::Mixed, 0, 0, 6};
    const auto a = generate_matrix(spec, 0, MatrixId::A, 2, 2);
    CHECK(a == std::vector<float>{0x1.35b68p-10f, -0x1.a4b1b8p-5f, 0x1.e56164p+0f, 0x1.d42358p+1f});
}

TEST_CASE("sparse data has zero rows, zero columns and the requested density, pinned for seed 7") {
    GeneratorSpec spec{Distribution::Sparse, 0, 0, 7, 0.5};
    const auto a = generate_matrix(spec, 0, MatrixId::A, 16, 16);
    const std::vector<float> first{0x1.2cabcp-1f, 0x1.0fa4cp-2f, -0x1.799a7cp-1f, 0.0f, 0x1.f5bp-11f,
                                   0.0f,          0.0f,          0x1.9614dp-2f};
    CHECK(std::vector<float>(a.begin(), a.begin() + 8) == first);
    CHECK(std::count(a.begin(), a.end(), 0.0f) == 143);
}

TEST_CASE("a matrix large enough to be generated by several threads matches the sequential stream") {
    GeneratorSpec spec{Distribution::Uniform, -1, 1, 9};
    const int n = 2100; // 4.4 M elements: above the threshold for threads
    const auto b = generate_matrix(spec, 1, MatrixId::B, n, n);
    CHECK(b[0] == -0x1.09d438p-1f);
    CHECK(b[std::size_t(n) * 1050 + 7] == 0x1.54ad14p-1f);
    CHECK(b.back() == 0x1.26ad6p-4f);
}

TEST_CASE("the largest magnitude of each distribution bounds its values") {
    CHECK(max_magnitude(GeneratorSpec{Distribution::Uniform, -3, 2, 1}) == 3);
    CHECK(max_magnitude(GeneratorSpec{Distribution::Normal, 0, 0, 1}) == 6);
    CHECK(max_magnitude(GeneratorSpec{Distribution::Mixed, 0, 0, 1}) == 1 << 20);
    for (auto d : {Distribution::Normal, Distribution::Mixed, Distribution::Sparse}) {
        GeneratorSpec spec{d, 0, 0, 11, 0.3};
        const auto v = generate_matrix(spec, 0, MatrixId::A, 64, 64);
        for (float x : v) REQUIRE(std::fabs(x) <= max_magnitude(spec));
        CHECK(std::any_of(v.begin(), v.end(), [](float x) { return x != 0; }));
    }
}

TEST_CASE("a structured operand keeps its triangle's zeros exact, or mirrors the values above its diagonal") {
    GeneratorSpec spec;
    spec.seed = 17;
    const int n = 9;
    const auto general = generate_matrix(spec, checked_input_set, MatrixId::A, n, n);
    for (const Structure structure : {Structure::Lower, Structure::Upper, Structure::Symmetric}) {
        spec.structure_a = structure;
        const auto a = generate_matrix(spec, checked_input_set, MatrixId::A, n, n);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c) {
                CAPTURE(static_cast<int>(structure));
                const float value = a[r * n + c], own = general[r * n + c];
                if (structure == Structure::Lower) CHECK(value == (c <= r ? own : 0.0f));
                if (structure == Structure::Upper) CHECK(value == (c >= r ? own : 0.0f));
                if (structure == Structure::Symmetric) CHECK(value == general[std::min(r, c) * n + std::max(r, c)]);
            }
    }
}
