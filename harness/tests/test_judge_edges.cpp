// ./judge at its edges, end to end, without a GPU: whose fault each exit status says, bad
// and invisible input in testcase files, the compile cache seen from the command line, and
// the checkout's own suite. With a GPU the solutions here are judged on one sample case.
#include "judge/process.hpp"
#include "test_support.hpp"

#include <doctest/doctest.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <sys/stat.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;
namespace fs = std::filesystem;

namespace {

const std::string judge_program = std::string(GEMM_BIN_DIR) + "/gemm-judge";
const std::string naive = std::string(GEMM_SOURCE_DIR) + "/solutions/naive.cu";

bool have_nvcc() {
    const auto run = run_captured({GEMM_NVCC, "--version"});
    return run.started && run.exit_code == 0;
}

bool gpu_present() {
    static const bool present = [] {
        const auto run = run_captured({std::string(GEMM_BIN_DIR) + "/gemm-referee", "--probe"});
        try {
            return nlohmann::json::parse(run.output.substr(run.output.rfind('{'))).at("present").get<bool>();
        } catch (const std::exception &) {
            return false;
        }
    }();
    return present;
}

// The judge's exit status and what it printed (stdout and stderr together, or only one).
struct Run {
    int status;
    std::string output;
};

enum class Stream { both, out, err };

Run judge(std::vector<std::string> args, Stream stream = Stream::both) {
    args.insert(args.begin(), judge_program);
    if (stream != Stream::both) {
        const char *drop = stream == Stream::out ? "2>/dev/null" : ">/dev/null";
        args.insert(args.begin(), {"sh", "-c", std::string("\"$0\" \"$@\" ") + drop});
    }
    const auto run = run_captured(args);
    return {run.signal ? 128 + run.signal : run.exit_code, run.output};
}

// Options that keep a judged run short: one sample case when there is a GPU.
std::vector<std::string> quick(std::vector<std::string> args, const TempFolder &folder) {
    args.insert(args.end(), {"--cache-dir", folder.at("cache"), "--case", "sample/01-one-by-one", "--time-budget",
                             "0.01", "--no-shrink"});
    return args;
}

// The solution compiled and loaded: exit 6 and "solve() found" without a GPU, AC with one.
void check_compiled_and_loaded(const Run &run) {
    CAPTURE(run.output);
    if (gpu_present()) {
        CHECK(run.status == 0);
    } else {
        CHECK(run.status == 6);
        CHECK(contains(run.output, "solve() found"));
    }
}

std::string read_text(const std::string &path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

TEST_CASE("--version prints the judge's version") {
    const auto run = judge({"--version"});
    CHECK(run.status == 0);
    CHECK(contains(run.output, "gemm-judge 0."));
}

TEST_CASE("a bad option is exit 64 naming the option, never CE or JE") {
    TempFolder folder;
    const auto text_file = folder.write("solution.txt", read_text(naive));
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{naive, "--nvcc", "/nonexistent/nvcc"}, "--nvcc"},
        {{naive, "--arch", "banana"}, "--arch banana"},
        {{text_file}, "ending in .cu"},
        {{naive, "--shape", "3x4x5", "--data", "uniform 1 1"}, "--data 'uniform 1 1': uniform needs LOW < HIGH"},
        {{naive, "--shape", "3x3x3", "--seed", "-1"}, "--seed -1: seed must be between 0 and 2^59 - 1"},
        {{naive, "--shape", "2147483647x2147483647x2147483647"}, "--shape 2147483647x2147483647x2147483647: "},
        {{naive, "--seed", "3"}, "--seed: only applies to --shape or --stress"},
        {{naive, "--sanitize", "--stress", "3"}, "--sanitize"},
        {{naive, "--shape", "3x3x3", "--case", "sample"}, "--shape"},
        {{naive, "--json", folder.at("no-such-folder/report.json")}, "--json"},
        {{naive, "--json", folder.path.string()}, "is a folder"},
        {{naive, "--include", folder.at("no-such-folder")}, "--include"},
    };
    for (const auto &[args, named] : cases) {
        const auto run = judge(args);
        CAPTURE(run.output);
        CHECK(run.status == 64);
        CHECK(contains(run.output, named));
        CHECK_FALSE(contains(run.output, "CE"));
        CHECK_FALSE(contains(run.output, "compiled")); // refused before any work
    }
}

TEST_CASE("a target this nvcc does not know is exit 64 naming --arch") {
    if (!have_nvcc()) return;
    TempFolder folder;
    const auto run = judge({naive, "--arch", "sm_99", "--cache-dir", folder.at("cache")});
    CHECK(run.status == 64);
    CHECK(contains(run.output, "--arch sm_99: "));
}

TEST_CASE("an unusable cache folder is a setup error, exit 7") {
    if (!have_nvcc()) return;
    TempFolder folder;
    const auto file = folder.write("a-file", "");
    const auto run = judge({naive, "--cache-dir", file + "/cache"});
    CHECK(run.status == 7);
    CHECK(contains(run.output, "judge: setup: the compile cache folder " + file + "/cache cannot be created"));
    CHECK_FALSE(contains(run.output, "internal error"));
}

TEST_CASE("cache info says where the cache is; cache clean empties it") {
    TempFolder folder;
    const auto info = judge({"cache", "info", "--cache-dir", folder.at("cache")});
    CHECK(info.status == 0);
    CHECK(contains(info.output, folder.at("cache") + ": 0 compiled solution(s)"));
    CHECK(contains(info.output, "at most 512.0 MiB"));
    const auto clean = judge({"cache", "clean", "--cache-dir", folder.at("cache")});
    CHECK(clean.status == 0);
    CHECK(contains(clean.output, "removed 0 compiled solution(s)"));
}

TEST_CASE("a header replaced by garbage is CE, not a cached library") {
    if (!have_nvcc()) return;
    TempFolder folder;
    folder.write("helper.cuh", "inline int helper() { return 1; }\n");
    const auto solution = folder.write("sol.cu", "#include \"helper.cuh\"\n" + read_text(naive));
    check_compiled_and_loaded(judge(quick({solution}, folder)));
    folder.write("helper.cuh", "garbage\n");
    const auto run = judge(quick({solution}, folder));
    CHECK(run.status == 4);
    CHECK(contains(run.output, "helper.cuh(1)"));
}

TEST_CASE("a truncated cached library is rebuilt before the worker loads it") {
    if (!have_nvcc()) return;
    TempFolder folder;
    const auto solution = folder.write("sol.cu", read_text(naive));
    check_compiled_and_loaded(judge(quick({solution}, folder)));
    for (const auto &entry : fs::directory_iterator(folder.at("cache")))
        if (entry.path().extension() == ".so") fs::resize_file(entry.path(), 4096);
    const auto run = judge(quick({solution}, folder));
    check_compiled_and_loaded(run);
    CHECK(contains(run.output, "had changed on disk; it was rebuilt"));
}

TEST_CASE("--include and a folder's gemm-judge.conf give nvcc a header library's folder") {
    if (!have_nvcc()) return;
    TempFolder folder;
    folder.write("lib/include/mylib/helper.cuh", "inline int helper() { return 1; }\n");
    const auto solution = folder.write("solutions/sol.cu", "#include <mylib/helper.cuh>\n" + read_text(naive));
    CHECK(judge(quick({solution}, folder)).status == 4);
    check_compiled_and_loaded(judge(quick({solution, "--include", folder.at("lib/include")}, folder)));
    folder.write("solutions/gemm-judge.conf", "# the header libraries of this folder\ninclude ../lib/include\n");
    check_compiled_and_loaded(judge(quick({solution}, folder)));
    folder.write("solutions/gemm-judge.conf", "include ../lib/include\ninclude ../missing\n");
    const auto bad = judge(quick({solution}, folder));
    CHECK(bad.status == 7);
    CHECK(contains(bad.output, "gemm-judge.conf:2: include folder"));
}

TEST_CASE("--list shows the good cases, reports a bad file escaped, and exits 5") {
    TempFolder folder;
    folder.write("suite/secret/deep/01-good.case", "shape 2 3 4\ndata normal\nseed 1\n");
    folder.write("suite/sample/01-bom.case", "\xef\xbb\xbfshape 1 1 1\ndata normal\nseed 1\n");
    folder.write("suite/secret/02-bad.case", "\x1b[2Jshape 1 1 1\ndata normal\nseed 1\n");
    const auto run = judge({"--list", "--testcases", folder.at("suite")});
    CHECK(run.status == 5);
    CHECK(contains(run.output, "secret/deep/01-good  2×3×4"));
    CHECK(contains(run.output, "sample/01-bom  1×1×1"));
    CHECK(contains(run.output, "02-bad.case:1: unknown key `\\x1b[2Jshape`"));
    CHECK_FALSE(contains(run.output, "\x1b"));
    const auto one = judge({"--list", "--testcases", folder.at("suite"), "--case", "01-good"}, Stream::out);
    CHECK(one.output == "secret/deep/01-good  2×3×4\n");
}

TEST_CASE("case show of a good case works beside a bad file; case validate reports on stderr") {
    TempFolder folder;
    folder.write("suite/secret/01-good.case", "shape 2 3 4\ndata normal\nseed 1\n");
    folder.write("suite/secret/02-bad.case", "shape 1 1\n");
    const auto show = judge({"--testcases", folder.at("suite"), "case", "show", "01-good"}, Stream::out);
    CHECK(show.status == 0);
    CHECK(contains(show.output, "secret/01-good"));
    const auto problems = judge({"--testcases", folder.at("suite"), "case", "validate"}, Stream::err);
    CHECK(problems.status == 5);
    CHECK(contains(problems.output, "02-bad.case:1: expected `shape M N K`"));
    CHECK(judge({"--testcases", folder.at("suite"), "case", "validate"}, Stream::out).output.empty());
}

TEST_CASE("case new with a bad option names it, writes nothing and never says wrote") {
    TempFolder folder;
    fs::create_directories(folder.at("suite"));
    const auto run = judge({"--testcases", folder.at("suite"), "case", "new", "secret/x", "--shape", "0", "1", "1"});
    CHECK(run.status == 64);
    CHECK(contains(run.output, "--shape 0 1 1: M must be between 1 and 2147483647"));
    CHECK_FALSE(contains(run.output, "wrote"));
    CHECK_FALSE(contains(run.output, "x.case"));
    CHECK(fs::is_empty(folder.at("suite")));
}

TEST_CASE("the judge reads the testcases of the checkout ./judge names in GEMM_JUDGE_ROOT") {
    TempFolder folder;
    fs::create_directories(folder.at("checkout"));
    fs::copy(std::string(GEMM_SOURCE_DIR) + "/testcases", folder.at("checkout/testcases"), fs::copy_options::recursive);
    folder.write("checkout/testcases/secret/99-added.case", "shape 5 5 5\ndata normal\nseed 9\n");
    setenv("GEMM_JUDGE_ROOT", folder.at("checkout").c_str(), 1);
    const auto run = judge({"--list", "--case", "99-added"});
    unsetenv("GEMM_JUDGE_ROOT");
    CHECK(run.status == 0);
    CHECK(contains(run.output, "secret/99-added  5×5×5"));
}

TEST_CASE("--help's examples name cases that exist") {
    const auto help = judge({"--help"});
    const std::string suite = std::string(GEMM_SOURCE_DIR) + "/testcases/";
    const std::regex full_name(R"(\b(sample|secret|perf|huge)/[0-9a-z-]+)");
    int named = 0;
    for (std::sregex_iterator m(help.output.begin(), help.output.end(), full_name), end; m != end; ++m, ++named)
        CHECK_MESSAGE(fs::exists(suite + m->str() + ".case"), m->str());
    const std::regex last_part(R"(\((\d\d-[0-9a-z-]+)\))");
    for (std::sregex_iterator m(help.output.begin(), help.output.end(), last_part), end; m != end; ++m, ++named)
        CHECK_MESSAGE(fs::exists(suite + "secret/" + (*m)[1].str() + ".case"), (*m)[1].str());
    CHECK(named >= 2);
}
