// The shipped sources compile under the judge as a user without a GPU compiles them: every
// rung of the ladder and every problem's site starter. No GPU is used (CUDA_VISIBLE_DEVICES is
// empty), so these run beside the other tests, not under the GPU tests' lock.
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const std::string source_dir = GEMM_SOURCE_DIR;
const std::string judge_program = std::string(GEMM_BIN_DIR) + "/gemm-judge";

} // namespace

// Compiled as a user without a GPU would (no GPU visible even where there is one): for the
// H200's sm_90a, so that cp.async, TF32 and wgmma are compiled as the GPU would, and a
// rung that cannot be compiled is caught on a machine without a GPU.
TEST_CASE("every rung of the ladder in solutions/ compiles without a GPU, for sm_90a") {
    if (gemm::test::skip_without_nvcc()) return;
    std::vector<std::string> rungs;
    for (const auto &entry : fs::directory_iterator(source_dir + "/solutions"))
        if (std::regex_match(entry.path().filename().string(), std::regex(R"([0-9]{2}-.*\.cu)")))
            rungs.push_back(entry.path().string());
    std::sort(rungs.begin(), rungs.end());
    REQUIRE(rungs.size() >= 11);
    for (const auto &rung : rungs) {
        const auto run = gemm::run_captured({"env", "CUDA_VISIBLE_DEVICES=", judge_program, rung, "--cache-dir",
                                             gemm::test::shared_compile_cache(), "--no-history"});
        CAPTURE(run.output);
        CHECK_MESSAGE(run.exit_code == 6, rung);
        CHECK(run.output.find(fs::path(rung).filename().string() +
                              "  compiled for sm_90a (no GPU found; --arch to choose); solve() found") !=
              std::string::npos);
    }
}

// Each problem's starter is its site's own file (testcases/…/starter.cu), pasted as the site
// gives it: it must compile under the judge as it is, for the problem its folder names, with
// the entry point the problem's descriptor expects found in the library.
TEST_CASE("every problem's site starter, as it is, compiles without a GPU, for sm_90a") {
    if (gemm::test::skip_without_nvcc()) return;
    const fs::path suites = source_dir + "/testcases";
    std::vector<fs::path> starters;
    for (const auto &entry : fs::recursive_directory_iterator(suites))
        if (entry.path().filename() == "starter.cu") starters.push_back(entry.path());
    std::sort(starters.begin(), starters.end());
    REQUIRE(starters.size() >= 35);
    for (const auto &starter : starters) {
        const std::string problem = fs::relative(starter.parent_path(), suites).generic_string();
        std::vector<std::string> command{"env",         "CUDA_VISIBLE_DEVICES=",
                                         judge_program, starter.string(),
                                         "--cache-dir", gemm::test::shared_compile_cache(),
                                         "--no-history"};
        if (problem != ".") command.insert(command.end(), {"--problem", problem});
        const auto run = gemm::run_captured(command);
        CAPTURE(problem);
        CAPTURE(run.output);
        CHECK(run.exit_code == 6);
        CHECK(run.output.find("starter.cu  compiled for sm_90a (no GPU found; --arch to choose);") !=
              std::string::npos);
    }
}
