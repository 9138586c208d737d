// nvcc → shared library, the compile cache and CE. The argument and key tests need nothing;
// the compile tests need nvcc, not a GPU (skipped without nvcc).
#include "command_line/options/folder_settings.hpp"
#include "common/errors.hpp"
#include "compile/compile.hpp"
#include "compile/compile_cache.hpp"
#include "compile/content_hash.hpp"
#include "compile/dependency_file.hpp"
#include "compile/gpu_target.hpp"
#include "compile/solve_symbol.hpp"
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <chrono>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sys/stat.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::skip_without_nvcc;
using gemm::test::TempFolder;
namespace fs = std::filesystem;

namespace {

#define REQUIRE_NVCC()                                                                                                 \
    if (skip_without_nvcc()) return

CompileOptions options_in(const TempFolder &folder) {
    CompileOptions o;
    o.nvcc = GEMM_NVCC;
    o.cache_dir = folder.at("cache");
    return o;
}

// The smallest solution nvcc compiles, calling a kernel `fill` from a header.
const std::string solve_calling_fill =
    "extern \"C\" void solve(const float *, const float *, float *C, int, int, int) {\n"
    "    fill<<<1, 1>>>(C);\n    cudaDeviceSynchronize();\n}\n";
const std::string solution_with_helper = "#include \"helper.cuh\"\n" + solve_calling_fill;
const char *good_helper = "__global__ void fill(float *c) { c[0] = 1; }\n";

// Sources kept in a folder of the build's (test-sources/NAME) and compiled with the tests' shared
// cache (test_support.hpp), for tests of what a compiled library gets, not of the compile: the
// cache's key is the source's path and bytes, so a source written again as it was is a hit.
struct SharedSources {
    fs::path path;
    explicit SharedSources(const std::string &name)
        : path((fs::path(GEMM_BIN_DIR) / ".." / "test-sources" / name).lexically_normal()) {
        fs::create_directories(path);
    }
    std::string write(const std::string &name, const std::string &text) const {
        std::ofstream(path / name, std::ios::binary) << text;
        return at(name);
    }
    std::string at(const std::string &name) const { return (path / name).string(); }
    CompileOptions options() const {
        CompileOptions o;
        o.nvcc = GEMM_NVCC;
        o.cache_dir = gemm::test::shared_compile_cache();
        return o;
    }
};

bool has(const std::vector<std::string> &args, const std::string &a) {
    return std::find(args.begin(), args.end(), a) != args.end();
}

} // namespace

TEST_CASE("the cache entry changes with the source's name, the flags and the compiler") {
    const auto base = cache_entry_name("/s/sol.cu", {"-O3"}, "v1");
    CHECK(base.rfind("sol-", 0) == 0);
    CHECK(base.size() == 4 + 32);
    CHECK(cache_entry_name("/s/sol.cu", {"-O3"}, "v1") == base);
    CHECK(cache_entry_name("/s/sol.cu", {"-O2"}, "v1") != base);
    CHECK(cache_entry_name("/s/sol.cu", {"-O3"}, "v2") != base);
    CHECK(cache_entry_name("/s/sol.cu", {"-O", "3"}, "v1") != base);
}

TEST_CASE("field hashes are length-prefixed and file hashes follow the bytes") {
    CHECK(hash_of_fields({"ab", "c"}) != hash_of_fields({"a", "bc"}));
    CHECK(hash_of_fields({"ab", "c"}) == hash_of_fields({"ab", "c"}));
    TempFolder folder;
    const auto file = folder.write("f", "some bytes");
    const auto first = hash_of_file(file);
    REQUIRE(first);
    CHECK(first->size() == 32);
    folder.write("f", "some bytez");
    CHECK(hash_of_file(file) != first);
    CHECK_FALSE(hash_of_file(folder.at("missing")));
}

TEST_CASE("nvcc's dependency output gives every file it read, unescaped") {
    const std::string rule = "o:ut.so.part : sol.cu \\\n"
                             "    /usr/include/stdc-predef.h \\\r\n"
                             "    my\\ headers/helper.cuh \\\n"
                             "    /usr/include/c++/12/cstdio\n"
                             "sol.cu:\n";
    CHECK(dependency_file_inputs(rule) == std::vector<std::string>{"sol.cu", "/usr/include/stdc-predef.h",
                                                                   "my headers/helper.cuh",
                                                                   "/usr/include/c++/12/cstdio"});
    CHECK(dependency_file_inputs("").empty());
    CHECK(dependency_file_inputs("no rule here").empty());
}

TEST_CASE("a Hopper gets the arch-specific sm_90a by default, and every later GPU its a-variant") {
    CHECK(default_target(9, 0) == "sm_90a");
    CHECK(default_target(10, 0) == "sm_100a");
    CHECK(default_target(12, 0) == "sm_120a");
    CHECK(default_target(8, 6) == "sm_86");
    CHECK(default_target(7, 5) == "sm_75");
}

TEST_CASE("an arch-specific target is one -gencode pair, a plain one -arch") {
    CHECK(target_arguments("sm_90a") == std::vector<std::string>{"-gencode=arch=compute_90a,code=sm_90a"});
    CHECK(target_arguments("sm_100f") == std::vector<std::string>{"-gencode=arch=compute_100f,code=sm_100f"});
    CHECK(target_arguments("sm_90") == std::vector<std::string>{"-arch=sm_90"});
    CHECK(target_arguments("").empty());
    for (const char *bad : {"banana", "sm_9", "sm_90b", "compute_90", "sm_90a ", "-arch=sm_90"}) {
        CAPTURE(bad);
        CHECK_FALSE(is_target_name(bad));
    }
}

TEST_CASE("a target is known to nvcc when its base is listed and has that variant") {
    const std::string listed = "sm_75\nsm_80\nsm_86\nsm_90\nsm_100\nsm_120\n";
    CHECK(nvcc_knows_target("sm_90", listed));
    CHECK(nvcc_knows_target("sm_90a", listed));
    CHECK(nvcc_knows_target("sm_100f", listed));
    CHECK_FALSE(nvcc_knows_target("sm_86a", listed));
    CHECK_FALSE(nvcc_knows_target("sm_90f", listed));
    CHECK_FALSE(nvcc_knows_target("sm_35", listed));
    CHECK_FALSE(nvcc_knows_target("sm_9", listed));
}

TEST_CASE("without a GPU and without --arch a solution is compiled for sm_90a, and the first line says why") {
    const DeviceInfo none;
    DeviceInfo h200;
    h200.present = true;
    h200.cc_major = 9;
    CHECK(choose_target("", none, "/nonexistent/nvcc") == "sm_90a"); // an nvcc that cannot list lets nvcc decide
    CHECK(choose_target("sm_80", none, "/nonexistent/nvcc") == "sm_80");
    CHECK(choose_target("", h200, "/nonexistent/nvcc") == "sm_90a");
    CHECK(target_in_words("sm_90a", "", none) == "sm_90a (no GPU found; --arch to choose)");
    CHECK(target_in_words("sm_80", "sm_80", none) == "sm_80");
    CHECK(target_in_words("sm_90a", "", h200) == "sm_90a");
    CHECK(target_in_words("", "", none) == "nvcc's default target");
    if (skip_without_nvcc()) return;
    CHECK(choose_target("", none, GEMM_NVCC) == "sm_90a");
}

TEST_CASE("a compile that fails for its target, not its code, ends with the --arch that gives the target") {
    const std::string cp_async = "ptxas /tmp/x.ptx, line 146; error   : Feature 'cp.async' requires .target sm_80 or "
                                 "higher\nptxas /tmp/x.ptx, line 223; error   : Feature 'cp.async.commit_group' "
                                 "requires .target sm_80 or higher\n";
    CHECK(target_hint(cp_async, "sm_75") == "the cause is the GPU target: sm_75 lacks cp.async; try --arch sm_80");
    CHECK(target_hint(cp_async, "") ==
          "the cause is the GPU target: nvcc's default target lacks cp.async; try --arch sm_80");
    const std::string wgmma = "error   : Instruction 'wgmma.fence' not supported on .target 'sm_90'\n"
                              "error   : Instruction 'wgmma.mma_async with floating point types' not supported on "
                              ".target 'sm_90'\nerror   : Instruction 'setmaxnreg.inc' not supported on .target "
                              "'sm_90'\n";
    CHECK(target_hint(wgmma, "sm_90") ==
          "the cause is the GPU target: sm_90 lacks setmaxnreg, wgmma; try --arch sm_90a");
    const std::string many = "Feature '.tf32' requires .target sm_80 or higher\nFeature 'cp.async.bulk.tensor' "
                             "requires .target sm_90 or higher\nFeature '.cluster scope' requires .target sm_90 or "
                             "higher\nFeature 'mbarrier.init' requires .target sm_80 or higher\nFeature "
                             "'.op_restrict' requires .target sm_90 or higher\n";
    const auto hint = target_hint(many, "sm_75");
    REQUIRE(hint);
    CHECK(*hint == "the cause is the GPU target: sm_75 lacks cluster, cp.async, mbarrier, …; try --arch "
                   "sm_90a");
    CHECK(hint->size() <= 100);
    CHECK_FALSE(target_hint("sol.cu(2): error: identifier \"x\" is undefined\n", "sm_90a"));
    CHECK_FALSE(target_hint("error   : Instruction 'tcgen05.mma' not supported on .target 'sm_90a'\n", "sm_90a"));
}

TEST_CASE("a Hopper-only instruction compiled for an older --arch is CE suggesting sm_90a, and for sm_90a it builds") {
    REQUIRE_NVCC();
    TempFolder folder;
    const auto source = folder.write(
        "hopper.cu", "__global__ void grow() { asm volatile(\"setmaxnreg.inc.sync.aligned.u32 "
                     "240;\"); }\n" +
                         solve_calling_fill.substr(0, solve_calling_fill.find('{') + 1) + " grow<<<1, 128>>>(); }\n");
    CompileOptions o = options_in(folder);
    o.arch = "sm_80";
    const auto old = compile_solution(source, o);
    CAPTURE(old.diagnostics);
    CHECK_FALSE(old.ok);
    CHECK(old.diagnostics.rfind("nvcc failed\n", 0) == 0);
    CHECK(contains(old.diagnostics, "the cause is the GPU target: sm_80 lacks setmaxnreg; try --arch sm_90a\n"));
    o.arch = "sm_90a";
    const auto hopper = compile_solution(source, o);
    CHECK_MESSAGE(hopper.ok, hopper.diagnostics);
}

TEST_CASE("a missing solution file names the nearest .cu file beside it") {
    TempFolder folder;
    folder.write("solutions/tiled.cu", "");
    folder.write("solutions/naive.cu", "");
    CHECK(why_not_a_solution_file(folder.at("solutions/tild.cu")) ==
          "No such file or directory; did you mean " + folder.at("solutions/tiled.cu") + "?");
    CHECK(why_not_a_solution_file(folder.at("solutions/other.cu")) == "No such file or directory");
    CHECK(why_not_a_solution_file(folder.at("nowhere/tild.cu")) == "No such file or directory");
}

TEST_CASE("a mangled name's base name is the function's, and anything else is left as it is") {
    CHECK(unmangled_base_name("_Z5solvePKfS0_Pfiii") == "solve");
    CHECK(unmangled_base_name("_Z4solvPKfS0_Pfiii") == "solv");
    CHECK(unmangled_base_name("solve") == "solve");
    CHECK(unmangled_base_name("_ZN4gemm5solveEv") == "_ZN4gemm5solveEv"); // in a namespace: not solve()
    CHECK(unmangled_base_name("_Z99x") == "_Z99x");
    CHECK(unmangled_base_name("_Z") == "_Z");
}

TEST_CASE("a library without solve() is CE in the solution's terms: empty, no extern \"C\", the nearest name") {
    REQUIRE_NVCC();
    // What is checked is the CE a library without solve() gets, which a cached library gets
    // too (the last checks): so the sources are kept in the build folder and compiled with the
    // tests' shared cache, and a second scripts/test does not compile them again.
    const SharedSources folder("solve-symbol");
    const std::string parameters = "(const float *A, const float *B, float *C, int M, int N, int K) {}\n";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"empty.cu", " \n\n"},
        {"misspelt.cu", "extern \"C\" void solv" + parameters},
        {"mangled.cu", "void solve" + parameters},
        {"other.cu", "extern \"C\" void gemm" + parameters},
        {"good.cu", "extern \"C\" void solve" + parameters}};
    std::map<std::string, CompileResult> results;
    for (const auto &[name, text] : cases) results[name] = compile_solution(folder.write(name, text), folder.options());
    const std::string declaration = std::string(solve_declaration);
    CHECK(results["empty.cu"].diagnostics == folder.at("empty.cu") + " is empty: a solution defines\n" + declaration);
    CHECK(results["misspelt.cu"].diagnostics == folder.at("misspelt.cu") +
                                                    " defines no solve(); did you mean solv → solve? A solution "
                                                    "defines\n" +
                                                    declaration);
    CHECK(results["mangled.cu"].diagnostics == folder.at("mangled.cu") +
                                                   " defines solve() without extern \"C\" (so it is named "
                                                   "_Z5solvePKfS0_Pfiii); declare it as\n" +
                                                   declaration);
    CHECK(results["other.cu"].diagnostics ==
          folder.at("other.cu") + " defines no function named solve; declare it as\n" + declaration);
    for (const char *bad : {"empty.cu", "misspelt.cu", "mangled.cu", "other.cu"}) CHECK_FALSE(results[bad].ok);
    CHECK_MESSAGE(results["good.cu"].ok, results["good.cu"].diagnostics);
    const auto cached = compile_solution(folder.at("misspelt.cu"), folder.options());
    CHECK(cached.cached);
    CHECK_FALSE(cached.ok);                               // a cached library is checked too
    CHECK_FALSE(exported_symbols(folder.at("empty.cu"))); // not an ELF file
}

TEST_CASE("nvcc arguments build a shared library for the target with the include folders") {
    CompileOptions o;
    o.nvcc = "nvcc";
    o.arch = "sm_90a";
    o.include_dirs = {"/opt/cutlass/include"};
    const auto args = nvcc_arguments("x.cu", "x.so", o);
    CHECK(has(args, "-shared"));
    CHECK(has(args, "-gencode=arch=compute_90a,code=sm_90a"));
    CHECK_FALSE(has(args, "-arch=sm_90a"));
    CHECK(has(args, "-I/opt/cutlass/include"));
    CHECK(has(args, "-lcublas"));
    CHECK(has(args, "x.cu"));
}

TEST_CASE("without XDG_CACHE_HOME and HOME the cache is a folder of the user's own below /tmp") {
    const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "";
    const char *xdg = std::getenv("XDG_CACHE_HOME");
    const std::string saved_xdg = xdg ? xdg : "";
    unsetenv("XDG_CACHE_HOME");
    unsetenv("HOME");
    const auto folder = default_cache_dir();
    if (!home.empty()) setenv("HOME", home.c_str(), 1);
    if (xdg) setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
    CHECK(folder == (fs::temp_directory_path() / ("gemm-judge-" + std::to_string(geteuid()))).string());
}

TEST_CASE("the cache folder is created private, and one open to other users or not writable is refused") {
    TempFolder folder;
    const CompileCache cache(folder.at("new/cache"));
    struct stat s {};
    REQUIRE(stat(cache.folder().c_str(), &s) == 0);
    CHECK((s.st_mode & 0777) == 0700);

    fs::create_directories(folder.at("shared"));
    chmod(folder.at("shared").c_str(), 0777);
    CHECK_THROWS_WITH_AS(CompileCache(folder.at("shared")), doctest::Contains("writable by other users"), SetupError);

    const auto file = folder.write("a-file", "x");
    CHECK_THROWS_WITH_AS(CompileCache(file + "/cache"), doctest::Contains("cannot be created: Not a directory"),
                         SetupError);
    if (geteuid() == 0) { // only root can hand a folder to another user
        fs::create_directories(folder.at("theirs"));
        REQUIRE(chown(folder.at("theirs").c_str(), 65534, 65534) == 0);
        CHECK_THROWS_WITH_AS(CompileCache(folder.at("theirs")), doctest::Contains("belongs to user 65534"), SetupError);
    }
}

TEST_CASE("an nvcc that cannot run is a setup error naming --nvcc, not CE") {
    TempFolder folder;
    CompileOptions o = options_in(folder);
    o.nvcc = "/nonexistent/nvcc";
    const auto source = folder.write("sol.cu", solution_with_helper);
    CHECK_THROWS_WITH_AS(compile_solution(source, o), doctest::Contains("--nvcc"), SetupError);
}

TEST_CASE("a solution compiles once and is then taken from the cache") {
    REQUIRE_NVCC();
    TempFolder folder;
    folder.write("helper.cuh", good_helper);
    const auto source = folder.write("sol.cu", solution_with_helper);
    const auto first = compile_solution(source, options_in(folder));
    REQUIRE_MESSAGE(first.ok, first.diagnostics);
    CHECK_FALSE(first.cached);
    CHECK(fs::exists(first.library));
    const auto second = compile_solution(source, options_in(folder));
    CHECK(second.ok);
    CHECK(second.cached);
    CHECK(second.library == first.library);
    for (const auto &entry : fs::directory_iterator(folder.at("cache")))
        CHECK_FALSE(contains(entry.path().string(), ".part")); // nothing half-written is left
}

TEST_CASE("a changed header is compiled again: garbage in it is CE, not a cached library") {
    REQUIRE_NVCC();
    TempFolder folder;
    folder.write("helper.cuh", good_helper);
    const auto source = folder.write("sol.cu", solution_with_helper);
    REQUIRE(compile_solution(source, options_in(folder)).ok);
    folder.write("helper.cuh", "this is not C++\n");
    const auto broken = compile_solution(source, options_in(folder));
    CHECK_FALSE(broken.ok);
    CHECK_FALSE(broken.cached);
    CHECK(contains(broken.diagnostics, "helper.cuh(1)"));
}

TEST_CASE("a truncated cached library is found out and rebuilt") {
    REQUIRE_NVCC();
    TempFolder folder;
    folder.write("helper.cuh", good_helper);
    const auto source = folder.write("sol.cu", solution_with_helper);
    const auto first = compile_solution(source, options_in(folder));
    REQUIRE(first.ok);
    const auto whole = fs::file_size(first.library);
    fs::resize_file(first.library, whole / 2);
    const auto second = compile_solution(source, options_in(folder));
    CHECK(second.ok);
    CHECK_FALSE(second.cached);
    CHECK(second.rebuilt_damaged);
    CHECK_FALSE(fs::exists(first.library)); // the damaged one is gone
    CHECK(fs::file_size(second.library) > whole / 2);
    CHECK(compile_solution(source, options_in(folder)).cached);
}

// Two judges that build one source at once: nvcc's two outputs need not be the same bytes.
// Each is stored under a name of its own, so the first's manifest still names bytes that are
// there, and the manifest last written is found whole, never taken for damage.
TEST_CASE("two builds of one entry stored at once keep their own libraries, and neither is damage") {
    TempFolder folder;
    const std::string source = folder.write("sol.cu", "// the source\n");
    const std::string entry = "sol-0123456789abcdef0123456789abcdef";
    CompileCache cache(folder.at("cache"));
    const auto started = fs::file_time_type::clock::now() + std::chrono::seconds(1);
    const std::string first = cache.store(entry, folder.write("one.so", "first build"), {source}, started);
    bool damaged = true;
    REQUIRE(cache.find(entry, damaged) == first);
    CHECK_FALSE(damaged);
    const std::string second = cache.store(entry, folder.write("two.so", "second build"), {source}, started);
    CHECK(second != first);
    std::ifstream kept(first);
    CHECK(std::string(std::istreambuf_iterator<char>(kept), {}) == "first build");
    CHECK(cache.find(entry, damaged) == second);
    CHECK_FALSE(damaged);
}

TEST_CASE("a cached library that others may write is not loaded but rebuilt") {
    REQUIRE_NVCC();
    TempFolder folder;
    folder.write("helper.cuh", good_helper);
    const auto source = folder.write("sol.cu", solution_with_helper);
    const auto first = compile_solution(source, options_in(folder));
    REQUIRE(first.ok);
    chmod(first.library.c_str(), 0777);
    const auto second = compile_solution(source, options_in(folder));
    CHECK(second.ok);
    CHECK_FALSE(second.cached);
    struct stat s {};
    REQUIRE(stat(second.library.c_str(), &s) == 0);
    CHECK((s.st_mode & 022) == 0);
}

TEST_CASE("a header library from an include folder is compiled with and keyed by its headers") {
    REQUIRE_NVCC();
    TempFolder folder;
    folder.write("lib/include/mylib/fill.cuh", good_helper);
    const auto source = folder.write("sol/sol.cu", "#include <mylib/fill.cuh>\n" + solve_calling_fill);
    CompileOptions o = options_in(folder);
    CHECK_FALSE(compile_solution(source, o).ok); // without the folder nvcc cannot find the header
    o.include_dirs = {folder.at("lib/include")};
    const auto first = compile_solution(source, o);
    REQUIRE_MESSAGE(first.ok, first.diagnostics);
    CHECK(compile_solution(source, o).cached);
    folder.write("lib/include/mylib/fill.cuh", "__global__ void fill(float *c) { c[0] = 2; }\n");
    const auto edited = compile_solution(source, o);
    CHECK(edited.ok);
    CHECK_FALSE(edited.cached);
    CHECK(edited.library != first.library);
}

TEST_CASE("an nvcc failure is reported with nvcc's file(line) message and leaves nothing in the cache") {
    REQUIRE_NVCC();
    TempFolder folder;
    const auto source = folder.write("broken.cu", "extern \"C\" void solve(const float*, const float*, float*, "
                                                  "int, int, int) {\n  this_is_not_declared();\n}\n");
    const auto r = compile_solution(source, options_in(folder));
    CHECK_FALSE(r.ok);
    CHECK(contains(r.diagnostics, "broken.cu(2)"));
    CHECK(contains(r.diagnostics, "error"));
    CHECK(fs::is_empty(folder.at("cache")));
}

TEST_CASE("cache info counts the libraries and clean removes only the cache's own files") {
    REQUIRE_NVCC();
    TempFolder folder;
    folder.write("helper.cuh", good_helper);
    const auto source = folder.write("sol.cu", solution_with_helper);
    REQUIRE(compile_solution(source, options_in(folder)).ok);
    folder.write("cache/notes.txt", "mine");
    CompileCache cache(folder.at("cache"));
    const CacheUsage before = cache.usage();
    CHECK(before.libraries == 1);
    CHECK(before.bytes > 0);
    CHECK(cache.clean().libraries == 1);
    CHECK(cache.usage().libraries == 0);
    CHECK(fs::exists(folder.at("cache/notes.txt")));
}

TEST_CASE("a folder's gemm-judge.conf names include folders relative to itself, and refuses what it does not know") {
    TempFolder folder;
    fs::create_directories(folder.at("lib/include"));
    const auto solution = folder.write("solutions/sol.cu", "");
    CHECK(folder_settings(solution).include_dirs.empty());
    folder.write("solutions/gemm-judge.conf", "\xef\xbb\xbf# CUTLASS\n\ninclude ../lib/include  # relative\n");
    const auto settings = folder_settings(solution);
    CHECK(settings.file == folder.at("solutions/gemm-judge.conf"));
    CHECK(settings.include_dirs == std::vector<std::string>{folder.at("lib/include")});
    folder.write("solutions/gemm-judge.conf", "include ../lib/include\nflags -O0\n");
    CHECK_THROWS_WITH_AS(folder_settings(solution), doctest::Contains("gemm-judge.conf:2: unknown setting `flags`"),
                         SetupError);
    folder.write("solutions/gemm-judge.conf", "include\n");
    CHECK_THROWS_WITH_AS(folder_settings(solution), doctest::Contains("gemm-judge.conf:1: expected `include DIR`"),
                         SetupError);
}
