// The family's problems as data: a descriptor read and refused, a case read in its problem's
// dims, the entry point read from a source, and every shipped problem consistent with its
// starter and its solution.
#include "channel/entry_plan.hpp"
#include "common/text.hpp"
#include "test_support.hpp"
#include "testcases/entry_signature.hpp"
#include "testcases/problem.hpp"
#include "testcases/problem_catalog.hpp"
#include "testcases/testcase.hpp"

#include <doctest/doctest.h>
#include <filesystem>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

const std::string problem_source_dir = GEMM_SOURCE_DIR;

const char *matmul_3d = R"({
  "name": "tensara/matmul-3d", "site": "Tensara", "title": "3D", "entry": "solution",
  "parameters": [{"name": "A", "type": "const float *"}, {"name": "B", "type": "const float *"},
                 {"name": "C", "type": "float *"}, {"name": "n", "type": "size_t"},
                 {"name": "m", "type": "size_t"}, {"name": "k", "type": "size_t"},
                 {"name": "l", "type": "size_t"}],
  "roles": {"A": "A", "B": "B", "C": "C"}, "dims": ["n", "m", "k", "l"],
  "gemm": {"M": "n*m", "N": "k", "K": "l"}, "baseline": "cublasSgemm"})";

std::string refusal(const std::string &text) {
    try {
        parse_problem(text, "p/problem.json");
    } catch (const ProblemError &e) {
        return e.what();
    }
    return "";
}

// `base` with its first `from` replaced by `to`.
std::string with(std::string base, const std::string &from, const std::string &to) {
    const auto at = base.find(from);
    REQUIRE(at != std::string::npos);
    return base.replace(at, from.size(), to);
}
std::string with(const std::string &from, const std::string &to) { return with(matmul_3d, from, to); }

} // namespace

TEST_CASE("a problem's dims make the product it judges: n·m rows of A for a 3-D tensor times a matrix") {
    const auto p = parse_problem(matmul_3d, "p/problem.json");
    CHECK(p.gemm_shape({16, 1024, 2048, 768}) == std::array<long long, 3>{16384, 2048, 768});
    CHECK(p.not_yet_judged().empty());
    CHECK_FALSE(p.is_default);
    CHECK(
        p.signature() ==
        "extern \"C\" void solution(const float *A, const float *B, float *C, size_t n, size_t m, size_t k, size_t l)");
    CHECK(entry_plan_text(entry_plan_of(p)) == "solution:A,B,C,0/size_t,1/size_t,2/size_t,3/size_t");
    CHECK(entry_plan_text(entry_plan_of(default_problem())) == "solve:A,B,C,0/int,1/int,2/int");
    const auto plan = parse_entry_plan("solution:A,B,C,0/size_t,3/int");
    REQUIRE(plan);
    CHECK(entry_plan_text(*plan) == "solution:A,B,C,0/size_t,3/int");
    CHECK_FALSE(parse_entry_plan("solution:A,B,X"));
    const auto scalar = parse_entry_plan("solve:A,B,C,0/int,=nnz/int");
    REQUIRE(scalar);
    CHECK(scalar->arguments[4].source == EntryArgument::Source::Scalar);
    CHECK(scalar->arguments[4].role == "nnz");
    CHECK(entry_plan_text(*scalar) == "solve:A,B,C,0/int,=nnz/int");
    CHECK_FALSE(parse_entry_plan("solve:A,B,C,=nnz/double"));
    CHECK_FALSE(parse_entry_plan("solve:A,B,C,=n;z/int"));
    CHECK_FALSE(parse_entry_plan("A,B,C"));
}

TEST_CASE("a descriptor that is not one is refused naming its file and the key, with the nearest name") {
    CHECK(contains(refusal("{"), "p/problem.json:0: is not JSON"));
    CHECK(contains(refusal(with("\"site\"", "\"sites\"")), "unknown key \"sites\"; did you mean \"site\"?"));
    CHECK(contains(refusal(with("\"size_t\"", "\"size\"")),
                   "parameter n: unknown type \"size\"; did you mean \"size_t\"?"));
    CHECK(contains(refusal(with("\"n*m\"", "\"n*q\"")), "gemm M: q is not one of the dims"));
    CHECK(contains(refusal(with("{\"name\": \"n\"", "{\"name\": \"x\", \"type\": \"int\"}, {\"name\": \"n\"")),
                   "parameter x is neither a dim nor in a role"));
    CHECK(contains(refusal(with("\"C\": \"C\"}", "\"C\": \"D\"}")), "role C names no parameter"));
}

TEST_CASE("what a problem needs beyond an FP32 product is named, never judged as one") {
    const auto fp16 = parse_problem(with("\"baseline\"", "\"dtype\": {\"A\": \"fp16\", \"accumulate\": \"fp32\"}, "
                                                         "\"epilogue\": [{\"op\": \"gelu\"}], \"baseline\""),
                                    "p/problem.json");
    const auto missing = fp16.not_yet_judged();
    REQUIRE(missing.size() == 2);
    CHECK(missing[0] == "fp16 operands stored other than row-major and dense, or with an epilogue");
    CHECK(missing[1] == "an epilogue (gelu)");
    // FP16 storage with FP32 accumulation, α and β with C read (LeetGPU #22): judged.
    // Storage of one 2-byte type in A, B and C, with FP32 sums.
    const auto stored_as = [&](const std::string &t) {
        return parse_problem(with("\"baseline\"", "\"dtype\": {\"A\": \"" + t + "\", \"B\": \"" + t +
                                                      "\", \"accumulate\": \"fp32\", \"C\": \"" + t +
                                                      "\"}, \"baseline\""),
                             "p/problem.json");
    };
    const auto gemm = stored_as("fp16");
    CHECK(gemm.not_yet_judged().empty());
    CHECK(gemm.layout({1, 2, 3, 4}).element_bytes == 2);
    CHECK(gemm.layout({1, 2, 3, 4}).words(5) == 3);
    const auto bf16 =
        parse_problem(with("\"baseline\"", "\"dtype\": {\"A\": \"bf16\"}, \"baseline\""), "p/problem.json");
    CHECK(bf16.not_yet_judged() == std::vector<std::string>{"bf16 operands"});
    // BF16 storage with FP32 sums is judged as FP16 is: 2-byte elements, flagged BF16.
    const auto bf16_gemm = stored_as("bf16");
    CHECK(bf16_gemm.not_yet_judged().empty());
    CHECK(bf16_gemm.layout({1, 2, 3, 4}).element_bytes == 2);
    CHECK(bf16_gemm.layout({1, 2, 3, 4}).bfloat16);
    CHECK_FALSE(gemm.layout({1, 2, 3, 4}).bfloat16);
}

// Tensara's gemm-multiply-leakyrelu: the factor matrix is the site's "C", the slope a scalar.
const char *multiply_leaky = R"({
  "name": "t/m", "site": "Tensara", "title": "M", "entry": "solution",
  "parameters": [{"name": "A", "type": "const float *"}, {"name": "B", "type": "const float *"},
                 {"name": "C", "type": "const float *"}, {"name": "alpha", "type": "float"},
                 {"name": "output", "type": "float *"}, {"name": "M", "type": "size_t"},
                 {"name": "N", "type": "size_t"}, {"name": "K", "type": "size_t"}],
  "roles": {"A": "A", "B": "B", "E": "C", "slope": "alpha", "C": "output"}, "dims": ["M", "N", "K"],
  "gemm": {"M": "M", "N": "K", "K": "N"}, "baseline": "cublasSgemm", "scalars": {"slope": 0.01},
  "epilogue": [{"op": "multiply", "by": "E"}, {"op": "leaky_relu", "slope": "alpha"}]})";

TEST_CASE("an epilogue is judged: its steps with the case's scalars, its operands in the layout and the plan") {
    const auto p = parse_problem(multiply_leaky, "p/problem.json");
    CHECK(p.not_yet_judged().empty());
    CHECK(p.default_scalars() == std::map<std::string, double>{{"slope", 0.01}});
    const Epilogue e = p.epilogue({{"slope", 0.2}});
    REQUIRE(e.count == 2);
    CHECK(e.steps[0].op == EpilogueOp::Multiply);
    CHECK(e.steps[1].op == EpilogueOp::LeakyRelu);
    CHECK(e.steps[1].parameter == 0.2);
    const ProductLayout layout = p.layout({3, 4, 5});
    CHECK(layout.factor);
    CHECK_FALSE(layout.bias);
    CHECK_FALSE(layout.scalar_output);
    CHECK(layout.factor_elements(3, 5) == 15);
    CHECK(layout.bias_elements(5) == 0);
    CHECK(entry_plan_text(entry_plan_of(p)) == "solution:A,B,factor,=slope/float,C,0/size_t,1/size_t,2/size_t");

    TempFolder folder;
    folder.write("m/problem.json", multiply_leaky);
    folder.write("m/sample/01.case", "shape 2 3 4\ndata uniform -1 1\nseed 2\n");
    folder.write("m/sample/02.case", "shape 2 3 4\ndata uniform -1 1\nseed 2\nscalar slope 0.5\n");
    const auto suite = load_suite_leniently(folder.at("m"));
    REQUIRE(suite.cases.size() == 2);
    CHECK(suite.cases[0].scalars.at("slope") == 0.01); // the problem's default
    CHECK(suite.cases[0].epilogue.steps[1].parameter == 0.01);
    CHECK(suite.cases[1].epilogue.steps[1].parameter == 0.5);
    CHECK(suite.cases[1].layout.factor);

    // A scalar with neither a value nor a default is an error in the case, not a zero.
    const std::string no_default = with(multiply_leaky, ", \"scalars\": {\"slope\": 0.01}", "");
    const auto bare = parse_problem(no_default, "p/problem.json");
    CHECK_THROWS_WITH(parse_testcase("shape 2 3 4\ndata uniform -1 1\nseed 2\n", "x.case", "sample/x", bare),
                      doctest::Contains("missing `scalar slope VALUE`"));
}

TEST_CASE("an epilogue the judge cannot judge is named: an unknown step, a sum not last, five steps, a batch") {
    const auto refused = [](const std::string &from, const std::string &to) {
        const auto p = parse_problem(with(multiply_leaky, from, to), "p/problem.json");
        CHECK(p.epilogue(p.default_scalars()).empty());
        return p.not_yet_judged();
    };
    CHECK(refused("{\"op\": \"multiply\", \"by\": \"E\"}", "{\"op\": \"sigmoid_sum\"}") ==
          std::vector<std::string>{"an epilogue (sigmoid_sum, leaky_relu)"});
    CHECK(refused("{\"op\": \"multiply\", \"by\": \"E\"}",
                  "{\"op\": \"relu\"}, {\"op\": \"relu\"}, {\"op\": \"relu\"}, {\"op\": \"relu\"}")
              .size() == 1);
    CHECK(refused("\"leaky_relu\", \"slope\": \"alpha\"", "\"leaky_relu\", \"slope\": \"gamma\"") ==
          std::vector<std::string>{"an epilogue (multiply, leaky_relu)"});
    CHECK(refused("\"baseline\"", "\"batch\": {\"count\": \"M\"}, \"baseline\"").size() == 2);
}

TEST_CASE("a problem's layout: a batch of products one after another, operands stored transposed, A's diagonal") {
    const auto batched = parse_problem(
        with("\"baseline\"", "\"batch\": {\"count\": \"n\", \"stride_A\": \"k*m\", \"stride_B\": \"k*l\", "
                             "\"stride_C\": \"m*l\"}, \"op\": {\"A\": \"N\", \"B\": \"T\"}, \"baseline\""),
        "p/problem.json");
    // (the 3-D problem's M is n·m; this test's descriptor keeps it, so A's stride is not one product's)
    CHECK(batched.not_yet_judged() == std::vector<std::string>{"batch strides other than one product after another"});
    const auto layout = batched.layout({4, 3, 5, 6});
    CHECK(layout.batch == 4);
    CHECK_FALSE(layout.a_transposed);
    CHECK(layout.b_transposed);
    CHECK(layout.b_elements(5, 6) == 4 * 5 * 6);
    CHECK(layout.b_rows(5, 6) == 6);

    TempFolder folder;
    folder.write("b/problem.json", with("\"gemm\": {\"M\": \"n*m\"",
                                        "\"batch\": {\"count\": \"n\", \"stride_A\": \"m*k\", "
                                        "\"stride_B\": \"l*k\", \"stride_C\": \"m*l\"}, \"gemm\": {\"M\": \"m\""));
    folder.write("b/sample/01.case", "shape 7 3 4 5\ndata uniform -1 1\nseed 2\n");
    const auto suite = load_suite_leniently(folder.at("b"));
    REQUIRE(suite.cases.size() == 1);
    CHECK(suite_problem(folder.at("b")).not_yet_judged().empty());
    const TestCase &tc = suite.cases[0];
    CHECK(tc.M == 3);
    CHECK(tc.layout.batch == 7);
    CHECK(shape_text(shape_of(tc)) == "7×(3×4×5)");
    CHECK(default_time_limit_s(3, 4, 5, 7) > default_time_limit_s(3, 4, 5));

    const auto diagonal =
        parse_problem(with("\"baseline\"", "\"structure\": {\"A\": \"diagonal\"}, \"baseline\""), "p/problem.json");
    CHECK(diagonal.not_yet_judged().empty());
    const auto d = diagonal.layout({1, 4, 4, 2});
    CHECK(d.a_diagonal);
    CHECK(d.a_elements(4, 4) == 4);
    CHECK(diagonal.structure("A") == Structure::General);
    const auto masked = parse_problem(
        with("\"baseline\"", "\"structure\": {\"A\": \"masked\", \"density\": 0.35}, \"baseline\""), "p/problem.json");
    CHECK(masked.structure("A") == Structure::Masked);
    CHECK(masked.mask_density() == 0.35);
}

TEST_CASE("a masked operand keeps about its density of a general matrix's values, the same ones on every run") {
    GeneratorSpec spec;
    spec.seed = 11;
    const auto general = generate_matrix(spec, checked_input_set, MatrixId::A, 200, 300);
    spec.structure_a = Structure::Masked;
    spec.mask_density = 0.35;
    const auto masked = generate_matrix(spec, checked_input_set, MatrixId::A, 200, 300);
    CHECK(masked == generate_matrix(spec, checked_input_set, MatrixId::A, 200, 300));
    std::size_t kept = 0;
    for (std::size_t i = 0; i < masked.size(); ++i) {
        if (masked[i] == 0.0f) continue;
        ++kept;
        CHECK(masked[i] == general[i]);
    }
    CHECK(kept > 0.33 * masked.size());
    CHECK(kept < 0.37 * masked.size());
    CHECK(generate_matrix(spec, timed_input_set, MatrixId::A, 200, 300) != masked); // another call, another mask
}

TEST_CASE("a case of another problem gives its shape in that problem's dims, and the suite above never reads it") {
    TempFolder folder;
    folder.write("suite/sample/01.case", "shape 2 3 4\ndata uniform -1 1\nseed 1\n");
    folder.write("suite/tensara/matmul-3d/problem.json", matmul_3d);
    folder.write("suite/tensara/matmul-3d/sample/01.case", "shape 2 3 4 5\ndata uniform -1 1\nseed 2\n");
    folder.write("suite/tensara/matmul-3d/sample/02.case", "shape 2 3 4\ndata uniform -1 1\nseed 3\n");
    const auto seed = load_suite_leniently(folder.at("suite"));
    CHECK(seed.problems.empty());
    REQUIRE(seed.cases.size() == 1);
    const auto other = load_suite_leniently(folder.at("suite/tensara/matmul-3d"));
    REQUIRE(other.cases.size() == 1);
    CHECK(other.cases[0].M == 6);
    CHECK(other.cases[0].N == 4);
    CHECK(other.cases[0].K == 5);
    CHECK(other.cases[0].dims == std::vector<long long>{2, 3, 4, 5});
    REQUIRE(other.problems.size() == 1);
    CHECK(contains(other.problems[0], "02.case:1: expected `shape n m k l`"));
    const auto problems = problems_below(folder.at("suite"));
    REQUIRE(problems.size() == 2);
    CHECK(problems[1].name == "tensara/matmul-3d");
    CHECK(problem_folder(folder.at("suite"), "tensara/matmul-3d") == folder.at("suite/tensara/matmul-3d"));
    CHECK_FALSE(problem_folder(folder.at("suite"), "tensara/../x"));
}

TEST_CASE("the entry point is read from the source whatever its spacing, names and comments") {
    const auto found = extern_c_functions("// extern \"C\" void solve(int) {}\n"
                                          "__global__ void k(float *x) {}\n"
                                          "extern \"C\"   void solution(const float* __restrict__ input_a,\n"
                                          "    const float *input_b, float*output_c, std::size_t m, size_t k) {\n}\n"
                                          "extern \"C\" void solve(const float *const A, int) { }\n");
    REQUIRE(found.size() == 2);
    CHECK(found[0].name == "solution");
    CHECK(found[0].types == std::vector<std::string>{"const float *", "const float *", "float *", "size_t", "size_t"});
    CHECK(found[1].types == std::vector<std::string>{"const float *", "int"});
    CHECK(normalised_type("const  half * x") == "const half *");
    CHECK(normalised_type("__half *y") == "half *");
    CHECK(normalised_type("const nv_bfloat16 *A") == "const __nv_bfloat16 *");
    CHECK(normalised_type("int") == "int");
}

TEST_CASE("every shipped problem loads, its starter answers its entry point, and a judged one has a solution") {
    const auto problems = problems_below(problem_source_dir + "/testcases");
    CHECK(problems.size() >= 35);
    CHECK(problems.front().is_default);
    std::vector<std::string> names;
    for (const auto &p : problems) names.push_back(p.name);
    const auto at = [&names](const std::string &name) { return std::find(names.begin(), names.end(), name); };
    CHECK(at("kernelbench/9-tall-skinny-matmul") < at("kernelbench/10-matmul-3d")); // in number order
    CHECK(at("leetgpu/18-sparse-matrix-vector") < at("leetgpu/22-gemm"));
    for (const auto &p : problems) {
        CAPTURE(p.name);
        const auto starter = read_text_file(p.folder + "/starter.cu");
        // Every problem has its site's starter and our statement, the default one included.
        REQUIRE(starter);
        CHECK(answers(extern_c_functions(*starter), p));
        CHECK(std::filesystem::exists(p.folder + "/statement.md"));
        if (!p.is_default) {
            REQUIRE(starter);
            CHECK(answers(extern_c_functions(*starter), p));
            CHECK(std::filesystem::exists(p.folder + "/statement.md"));
            const auto solution = problem_source_dir + "/solutions/problems/" + p.name + ".cu";
            REQUIRE(std::filesystem::exists(solution));
            CHECK(answers(extern_c_functions(*read_text_file(solution)), p));
            const auto suite = load_suite_leniently(p.folder);
            CHECK(suite.problems.empty());
            CHECK(suite.cases.size() >= 3);
        }
    }
}

TEST_CASE("LeetGPU's int8 requantization is judged: bytes in the layout, its scalars passed, another rounding not") {
    const auto int8 = load_problem(problem_source_dir + "/testcases/leetgpu/32-int8-quantized-matmul/problem.json");
    CHECK(int8.not_yet_judged().empty());
    CHECK(int8.dtypes() == "int8 in, int32 accumulate, int8 out");
    CHECK(int8.layout({3, 5, 7}).element_bytes == 1);
    CHECK(int8.layout({3, 5, 7}).words(5) == 2);
    CHECK(entry_plan_text(entry_plan_of(int8)) ==
          "solve:A,B,C,0/int,1/int,2/int,=scale_A/float,=scale_B/float,=scale_C/float,=zero_point_A/int,"
          "=zero_point_B/int,=zero_point_C/int");
    auto text = *read_text_file(problem_source_dir + "/testcases/leetgpu/32-int8-quantized-matmul/problem.json");
    const auto rounding = text.find("\"half_even\"");
    REQUIRE(rounding != std::string::npos);
    text.replace(rounding, 11, "\"half_away\"");
    const auto away = parse_problem(text, "p/problem.json").not_yet_judged();
    REQUIRE(away.size() == 1);
    CHECK(contains(away[0], "an int8 requantization other than LeetGPU's"));
}
