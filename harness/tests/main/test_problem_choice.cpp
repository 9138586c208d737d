// Choosing the problem from the command line: ./judge problems, --problem, and the entry
// point read from the solution's source, without a GPU.
#include "common/terminal_text.hpp"
#include "common/text.hpp"
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;
using gemm::test::unwrapped;

namespace {

const std::string family_source_dir = GEMM_SOURCE_DIR;

CapturedRun judge_with(const std::vector<std::string> &args, const ChildSetup &setup = {}) {
    std::vector<std::string> argv{gemm::test::judge_program};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_captured(argv, setup);
}

// Every shipped problem is judged: a copy of the checkout's testcases/ with one problem the
// judge cannot judge yet (FP8, harness/tests/support/unjudged-problem), named in GEMM_JUDGE_ROOT.
ChildSetup root_with_unjudged_problem(const TempFolder &folder) {
    namespace fs = std::filesystem;
    fs::create_directories(folder.at("checkout/testcases/example"));
    fs::copy(family_source_dir + "/testcases", folder.at("checkout/testcases"), fs::copy_options::recursive);
    fs::copy(family_source_dir + "/harness/tests/support/unjudged-problem",
             folder.at("checkout/testcases/example/fp8-gemm"), fs::copy_options::recursive);
    ChildSetup setup;
    setup.environment = {"GEMM_JUDGE_ROOT=" + folder.at("checkout")};
    return setup;
}

} // namespace

TEST_CASE("./judge problems lists every problem in lines of 100 columns, and shows one with its starter") {
    const auto list = judge_with({"problems"});
    CHECK(list.exit_code == 0);
    std::istringstream lines(list.output);
    int entries = 0;
    for (std::string line; std::getline(lines, line);) {
        CAPTURE(line);
        CHECK(display_width(line) <= console_width);
        entries += line.rfind("    ", 0) != 0 && line.find('/') != std::string::npos && !contains(line, "problems,");
    }
    CHECK(entries >= 35);
    CHECK(contains(list.output, "leetgpu/2-matrix-multiplication"));
    CHECK(contains(list.output, "judged (the default)"));
    CHECK(contains(unwrapped(list.output), "tensara/matmul-3d                       Tensara, fp32; judged"));
    const auto one = judge_with({"problems", "tensara/matmul-3d"});
    CHECK(one.exit_code == 0);
    CHECK(contains(one.output, "starter.cu:"));
    CHECK(contains(one.output, "extern \"C\" void solution("));
    const auto typo = judge_with({"problems", "tensara/matmul-3e"});
    CHECK(typo.exit_code == 64);
    CHECK(contains(typo.output, "did you mean tensara/matmul-3d?"));
}

TEST_CASE("--problem names a problem, suggests the nearest for a typo and refuses one not judged yet") {
    const std::string solution = family_source_dir + "/solutions/tiled.cu";
    const auto typo = judge_with({"--problem", "tensara/matmul-3e", solution});
    CHECK(typo.exit_code == 64);
    CHECK(contains(unwrapped(typo.output), "--problem tensara/matmul-3e: no problem has this name; did you mean "
                                           "tensara/matmul-3d?"));
    TempFolder folder;
    const auto unjudged = judge_with({"--problem", "example/fp8-gemm", solution}, root_with_unjudged_problem(folder));
    CHECK(unjudged.exit_code == 64);
    CHECK(contains(unwrapped(unjudged.output), "problem example/fp8-gemm is listed but not yet judged"));
    CHECK(contains(unwrapped(unjudged.output), "fp8_e4m3 in, fp32 accumulate, fp32 out operands"));
    const auto int8 = judge_with({"--problem", "leetgpu/32-int8-quantized-matmul", "--list"});
    CHECK(int8.exit_code == 0);
    CHECK(contains(int8.output, "secret/07-half-steps"));
    // An int8 problem's --data defaults to integers; one given is kept, and refused when it
    // cannot be int8, before anything is compiled, for --shape and --stress alike.
    for (const std::vector<std::string> &generated :
         {std::vector<std::string>{"--shape", "4x4x4"}, std::vector<std::string>{"--stress", "3"}}) {
        std::vector<std::string> args = {"--problem", "leetgpu/32-int8-quantized-matmul", solution, "--data",
                                         "uniform -1 1"};
        args.insert(args.end(), generated.begin(), generated.end());
        const auto floats = judge_with(args);
        CAPTURE(floats.output);
        CHECK(floats.exit_code == 64);
        CHECK(contains(unwrapped(floats.output), "--data 'uniform -1 1': an int8 problem's data is"));
    }
    const auto list = judge_with({"--problem", "tensara/matmul-3d", "--list"});
    CHECK(list.exit_code == 0);
    CHECK(contains(list.output, "sample/01-one"));
    CHECK_FALSE(contains(list.output, "secret/04-primes"));
    const auto shape = judge_with({"--problem", "tensara/matmul-3d", solution, "--shape", "2x2x2"});
    CHECK(shape.exit_code == 64);
    CHECK(contains(unwrapped(shape.output), "--shape 2x2x2: tensara/matmul-3d takes 4 sizes, its dims n×m×k×l"));
}

TEST_CASE("case new --problem writes an int8 problem's case with integer data unless --data says otherwise") {
    TempFolder folder;
    const ChildSetup root = root_with_unjudged_problem(folder); // a copy of testcases/ to write into
    const std::string problem = "leetgpu/32-int8-quantized-matmul";
    const auto made = judge_with({"case", "new", "secret/99-x", "--problem", problem, "--shape", "4x4x4"}, root);
    CAPTURE(made.output);
    CHECK(made.exit_code == 0);
    const auto text = read_text_file(folder.at("checkout/testcases/" + problem + "/secret/99-x.case"));
    REQUIRE(text);
    CHECK(contains(*text, "data integers -128 127\n"));
    const auto floats = judge_with(
        {"case", "new", "secret/98-x", "--problem", problem, "--shape", "4x4x4", "--data", "uniform -1 1"}, root);
    CHECK(floats.exit_code != 0);
    CHECK(contains(unwrapped(floats.output), "an int8 problem's data is"));
}

TEST_CASE("a solution's entry point picks its problem: Tensara's is compiled and found, a shared one is refused") {
    if (gemm::test::skip_without_nvcc()) return;
    TempFolder folder;
    const std::string cache = gemm::test::shared_compile_cache(); // the checkout's solutions: compiled once
    const auto tensara = judge_with({family_source_dir + "/solutions/problems/tensara/matmul-3d.cu", "--cache-dir",
                                     cache, "--json", folder.at("r.json"), "--no-history"});
    CAPTURE(tensara.output);
    if (tensara.exit_code == 6) {
        CHECK(contains(tensara.output, "solution() found"));
        const auto report = nlohmann::json::parse(gemm::test::bytes_of(folder.at("r.json")));
        CHECK(report["problem"] == "tensara/matmul-3d");
    } else {
        CHECK(tensara.exit_code == 0);
        CHECK(contains(tensara.output, "problem: tensara/matmul-3d"));
    }
    const auto shared =
        judge_with({family_source_dir + "/solutions/problems/kernelbench/1-square-matmul.cu", "--cache-dir", cache});
    CHECK(shared.exit_code == 64);
    CHECK(contains(unwrapped(shared.output), "name one with --problem"));
    const auto seed = judge_with({family_source_dir + "/solutions/tiled.cu", "--cache-dir", cache, "--json",
                                  folder.at("seed.json"), "--no-history"});
    CHECK((seed.exit_code == 6 || seed.exit_code == 0));
    CHECK_FALSE(contains(seed.output, "problem:"));
    const auto report = nlohmann::json::parse(gemm::test::bytes_of(folder.at("seed.json")));
    CHECK(report["problem"] == "leetgpu/2-matrix-multiplication");
}

TEST_CASE("a folder's gemm-judge.conf names its solutions' problem, and a bad name or line is refused") {
    TempFolder folder;
    const auto solution = folder.write("sols/x.cu", gemm::test::bytes_of(family_source_dir + "/solutions/tiled.cu"));
    folder.write("sols/gemm-judge.conf", "problem tensara/matmul-3d  # Tensara's 3-D product\n");
    const auto list = judge_with({solution, "--list"});
    CHECK(list.exit_code == 0);
    CHECK(contains(list.output, "sample/03-two-slices"));
    folder.write("sols/gemm-judge.conf", "problem tensara/matmul-3e\n");
    const auto typo = judge_with({solution, "--list"});
    CHECK(typo.exit_code == 64);
    CHECK(contains(unwrapped(typo.output), "problem tensara/matmul-3e: no problem has this name; did you mean"));
    folder.write("sols/gemm-judge.conf", "problem a b\n");
    const auto bad = judge_with({solution, "--list"});
    CHECK(bad.exit_code == 7);
    CHECK(contains(unwrapped(bad.output), "gemm-judge.conf:1: expected `problem NAME`"));
}
