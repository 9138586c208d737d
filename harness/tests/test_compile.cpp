// nvcc → shared library, the cache, and CE. Needs nvcc, not a GPU; skipped without nvcc.
#include "judge/compile.hpp"
#include "judge/process.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace gemm;
namespace fs = std::filesystem;

namespace {

bool have_nvcc() {
    const auto run = run_captured({GEMM_NVCC, "--version"});
    return run.started && run.exit_code == 0;
}

CompileOptions options_in(const fs::path &cache) {
    CompileOptions o;
    o.nvcc = GEMM_NVCC;
    o.cache_dir = cache.string();
    return o;
}

fs::path fresh_dir(const char *name) {
    const auto dir = fs::temp_directory_path() / (std::string(name) + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

} // namespace

TEST_CASE("the cache key changes with the source, the flags and the compiler") {
    const auto base = cache_key("a", {"-O3"}, "v1");
    CHECK(base.size() == 16);
    CHECK(cache_key("a", {"-O3"}, "v1") == base);
    CHECK(cache_key("b", {"-O3"}, "v1") != base);
    CHECK(cache_key("a", {"-O2"}, "v1") != base);
    CHECK(cache_key("a", {"-O3"}, "v2") != base);
    CHECK(cache_key("a", {"-O", "3"}, "v1") != cache_key("a", {"-O3"}, "v1"));
}

TEST_CASE("nvcc arguments build a shared library for the requested target") {
    CompileOptions o;
    o.nvcc = "nvcc";
    o.arch = "sm_90";
    const auto args = nvcc_arguments("x.cu", "x.so", o);
    auto has = [&](const std::string &a) { return std::find(args.begin(), args.end(), a) != args.end(); };
    CHECK(has("-shared"));
    CHECK(has("-arch=sm_90"));
    CHECK(has("-lcublas"));
    CHECK(has("x.cu"));
}

TEST_CASE("a solution compiles once and is then taken from the cache") {
    if (!have_nvcc()) {
        MESSAGE("nvcc not found: compile test not run");
        return;
    }
    const auto cache = fresh_dir("gemm-compile-cache");
    const auto first = compile_solution(std::string(GEMM_SOURCE_DIR) + "/solutions/naive.cu", options_in(cache));
    REQUIRE_MESSAGE(first.ok, first.diagnostics);
    CHECK_FALSE(first.cached);
    CHECK(fs::exists(first.library));
    const auto second = compile_solution(std::string(GEMM_SOURCE_DIR) + "/solutions/naive.cu", options_in(cache));
    CHECK(second.ok);
    CHECK(second.cached);
    CHECK(second.library == first.library);
    fs::remove_all(cache);
}

TEST_CASE("an nvcc failure is reported with nvcc's file(line) message and leaves nothing in the cache") {
    if (!have_nvcc()) {
        MESSAGE("nvcc not found: compile test not run");
        return;
    }
    const auto cache = fresh_dir("gemm-compile-ce");
    const auto source = cache / "broken.cu";
    std::ofstream(source) << "extern \"C\" void solve(const float*, const float*, float*, int, int, int) {\n"
                             "  this_is_not_declared();\n}\n";
    const auto r = compile_solution(source.string(), options_in(cache));
    CHECK_FALSE(r.ok);
    CHECK(r.diagnostics.find("broken.cu(2)") != std::string::npos);
    CHECK(r.diagnostics.find("error") != std::string::npos);
    std::size_t libraries = 0;
    for (const auto &entry : fs::directory_iterator(cache)) libraries += entry.path().extension() == ".so";
    CHECK(libraries == 0);
    fs::remove_all(cache);
}

TEST_CASE("a missing nvcc is a clear message, not a crash") {
    CompileOptions o = options_in(fs::temp_directory_path());
    o.nvcc = "/nonexistent/nvcc";
    const auto r = compile_solution(std::string(GEMM_SOURCE_DIR) + "/solutions/naive.cu", o);
    CHECK_FALSE(r.ok);
    CHECK(r.diagnostics.find("cannot run nvcc") != std::string::npos);
}
