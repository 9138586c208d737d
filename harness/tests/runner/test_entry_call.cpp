// The runner's call of an entry point through libffi, on the CPU: each argument where its
// plan says, with its C type, for int and size_t dims alike.
#include "runner/entry_call.hpp"

#include <doctest/doctest.h>

using namespace gemm;

namespace {

struct Seen {
    const float *A = nullptr, *B = nullptr;
    float *C = nullptr;
    std::size_t n = 0, m = 0;
    int k = 0;
} seen;

extern "C" void record_call(const float *A, const float *B, float *C, std::size_t n, std::size_t m, int k) {
    seen = {A, B, C, n, m, k};
}

int seen_nonzeros = 0;
float seen_scale = 0;
extern "C" void record_scalars(const float *, const float *, float *, int, int nnz, float scale) {
    seen_nonzeros = nnz;
    seen_scale = scale;
}

const float *seen_bias = nullptr, *seen_factor = nullptr;
float *seen_output = nullptr;
// Tensara's gemm-multiply-leakyrelu: the factor matrix before the slope and the output.
extern "C" void record_epilogue(const float *, const float *, const float *factor, float, float *output, std::size_t,
                                const float *bias) {
    seen_factor = factor;
    seen_output = output;
    seen_bias = bias;
}

} // namespace

TEST_CASE("an entry point of any parameter list gets the call's pointers and the case's dims") {
    const auto plan = parse_entry_plan("record_call:A,B,C,2/size_t,0/size_t,1/int");
    REQUIRE(plan);
    EntryCall call(reinterpret_cast<void *>(&record_call), *plan);
    float a = 0, b = 0, c = 0;
    CHECK(call({&a, &b, &c}, {7, -3, 5000000000LL}) == "");
    CHECK(seen.A == &a);
    CHECK(seen.B == &b);
    CHECK(seen.C == &c);
    CHECK(seen.n == 5000000000ULL);
    CHECK(seen.m == 7);
    CHECK(seen.k == -3);
    CHECK(call({&a, &b, &c}, {1}) == "the call has no dim 2");
}

TEST_CASE("a scalar argument comes from the call's scalars by its role, as an int or a float") {
    const auto plan = parse_entry_plan("record_scalars:A,B,C,0/int,=nnz/int,=scale/float");
    REQUIRE(plan);
    EntryCall call(reinterpret_cast<void *>(&record_scalars), *plan);
    float a = 0, b = 0, c = 0;
    CHECK(call({&a, &b, &c}, {3}, {{"nnz", 1234}, {"scale", 0.5}}) == "");
    CHECK(seen_nonzeros == 1234);
    CHECK(seen_scale == 0.5f);
    CHECK(call({&a, &b, &c}, {3}, {{"scale", 0.5}}) == "the call has no scalar nnz");
}

TEST_CASE("the epilogue's bias and factor operands go where the plan puts them") {
    const auto plan = parse_entry_plan("record_epilogue:A,B,factor,=slope/float,C,0/size_t,bias");
    REQUIRE(plan);
    CHECK(entry_plan_text(*plan) == "record_epilogue:A,B,factor,=slope/float,C,0/size_t,bias");
    EntryCall call(reinterpret_cast<void *>(&record_epilogue), *plan);
    float a = 0, b = 0, c = 0, bias = 0, factor = 0;
    CHECK(call({&a, &b, &c, &bias, &factor}, {3}, {{"slope", 0.01}}) == "");
    CHECK(seen_factor == &factor);
    CHECK(seen_output == &c);
    CHECK(seen_bias == &bias);
}
