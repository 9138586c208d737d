// ./judge at its edges, end to end, without a GPU: whose fault each exit status says, bad
// and invisible input in testcase files, the compile cache seen from the command line, and
// the checkout's own suite. With a GPU the solutions here are judged on one sample case.
#include "common/terminal_text.hpp"
#include "compile/compile.hpp"
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <regex>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::lines_of;
using gemm::test::occurrences;
using gemm::test::skip_without_nvcc;
using gemm::test::TempFolder;
using gemm::test::unwrapped;
namespace fs = std::filesystem;

namespace {

const std::string judge_program = std::string(GEMM_BIN_DIR) + "/gemm-judge";
const std::string naive = std::string(GEMM_SOURCE_DIR) + "/solutions/01-naive.cu";

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
        CHECK(contains(unwrapped(run.output), named));
        CHECK_FALSE(contains(run.output, "CE"));
        CHECK_FALSE(contains(run.output, "compiled")); // refused before any work
    }
}

TEST_CASE("a target this nvcc does not know is exit 64 naming --arch") {
    if (skip_without_nvcc()) return;
    TempFolder folder;
    const auto run = judge({naive, "--arch", "sm_99", "--cache-dir", folder.at("cache")});
    CHECK(run.status == 64);
    CHECK(contains(run.output, "--arch sm_99: "));
}

TEST_CASE("an unusable cache folder is a setup error, exit 7") {
    if (skip_without_nvcc()) return;
    TempFolder folder;
    const auto file = folder.write("a-file", "");
    const auto run = judge({naive, "--cache-dir", file + "/cache"});
    CHECK(run.status == 7);
    CHECK(
        contains(unwrapped(run.output), "judge: setup: the compile cache folder " + file + "/cache cannot be created"));
    CHECK_FALSE(contains(run.output, "internal error"));
}

TEST_CASE("cache info says where the cache is, and cache clean empties it") {
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
    if (skip_without_nvcc()) return;
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
    if (skip_without_nvcc()) return;
    TempFolder folder;
    const auto solution = folder.write("sol.cu", read_text(naive));
    check_compiled_and_loaded(judge(quick({solution}, folder)));
    for (const auto &entry : fs::directory_iterator(folder.at("cache")))
        if (entry.path().extension() == ".so") fs::resize_file(entry.path(), 4096);
    const auto run = judge(quick({solution}, folder));
    check_compiled_and_loaded(run);
    std::string joined = run.output; // the note is wrapped at 100 columns, indented by two
    for (std::size_t at; (at = joined.find("\n  ")) != std::string::npos;) joined.replace(at, 3, " ");
    CHECK(contains(joined, "had changed on disk; it was rebuilt"));
}

TEST_CASE("--include and a folder's gemm-judge.conf give nvcc a header library's folder") {
    if (skip_without_nvcc()) return;
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
    CHECK(contains(unwrapped(bad.output), "gemm-judge.conf:2: include folder"));
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
    CHECK(contains(unwrapped(run.output), "02-bad.case:1: unknown key `\\x1b[2Jshape`"));
    CHECK_FALSE(contains(run.output, "\x1b"));
    const auto one = judge({"--list", "--testcases", folder.at("suite"), "--case", "01-good"}, Stream::out);
    CHECK(one.output == "secret/deep/01-good  2×3×4\n");
}

TEST_CASE("case show of a good case works beside a bad file, and case validate reports on stderr") {
    TempFolder folder;
    folder.write("suite/secret/01-good.case", "shape 2 3 4\ndata normal\nseed 1\n");
    folder.write("suite/secret/02-bad.case", "shape 1 1\n");
    const auto show = judge({"--testcases", folder.at("suite"), "case", "show", "01-good"}, Stream::out);
    CHECK(show.status == 0);
    CHECK(contains(show.output, "secret/01-good"));
    const auto problems = judge({"--testcases", folder.at("suite"), "case", "validate"}, Stream::err);
    CHECK(problems.status == 5);
    CHECK(contains(unwrapped(problems.output), "02-bad.case:1: expected `shape M N K`"));
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

// ---- A newcomer's first hour: reports, names and messages from outside ----------------

namespace {

// A fake nvcc: `--version` works; every compile prints `message` (bytes as printf
// writes them from octal escapes) and fails.
std::string failing_nvcc(const TempFolder &folder, const std::string &printf_message) {
    const auto path =
        folder.write("bin/nvcc", "#!/bin/sh\n"
                                 "case \"$1\" in --version) echo 'Cuda compilation tools, fake'; exit 0;; "
                                 "esac\n"
                                 "printf '" +
                                     printf_message + "' >&2\nexit 1\n");
    chmod(path.c_str(), 0755);
    return path;
}

// A fake nvcc that builds a library with an empty solve() from the host compiler.
std::string building_nvcc(const TempFolder &folder) {
    const auto path = folder.write(
        "bin/nvcc",
        "#!/bin/sh\n"
        "case \"$1\" in --version) echo 'Cuda compilation tools, fake'; exit 0;; --list-gpu-code) exit 1;; esac\n"
        "out='' deps='' source=''\n"
        "while [ $# -gt 0 ]; do case \"$1\" in -o) out=\"$2\"; shift;; -MF) deps=\"$2\"; shift;; *.cu) source=\"$1\";; "
        "esac; shift; done\n"
        "[ -n \"$deps\" ] && echo \"$out: $source\" >\"$deps\"\n"
        "echo 'extern \"C\" void solve(const float *, const float *, float *, int, int, int) {}' |\n"
        "    c++ -shared -fPIC -x c++ - -o \"$out\"\n");
    chmod(path.c_str(), 0755);
    return path;
}

// A solution, a report folder and a fake nvcc: the judge on one sample case, no history.
std::vector<std::string> judged(const TempFolder &folder, const std::string &solution, const std::string &nvcc,
                                std::vector<std::string> more = {}) {
    std::vector<std::string> args = quick({solution, "--nvcc", nvcc, "--no-history"}, folder);
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

// No control byte but tab, newline and carriage return, valid UTF-8, and pugixml parses it.
void check_well_formed_xml(const std::string &xml) {
    CAPTURE(xml);
    CHECK_FALSE(xml.empty());
    CHECK(std::all_of(xml.begin(), xml.end(),
                      [](unsigned char c) { return c >= 0x20 || c == '\t' || c == '\n' || c == '\r'; }));
    CHECK(valid_utf8(xml) == xml);
    pugi::xml_document doc;
    CHECK(doc.load_string(xml.c_str()));
}

} // namespace

TEST_CASE("a compiler message that is not UTF-8 still gives a JSON report and a well-formed JUnit file") {
    TempFolder folder;
    const auto solution = folder.write("sol.cu", read_text(naive));
    const auto nvcc = failing_nvcc(folder, "sol.cu(1): error: #error caf\\351 \\033[31mred\\001\\n");
    const auto run =
        judge(judged(folder, solution, nvcc, {"--json", folder.at("r.json"), "--junit", folder.at("r.xml")}));
    CAPTURE(run.output);
    CHECK(run.status == 4);
    CHECK_FALSE(contains(run.output, "internal error"));
    CHECK(contains(run.output, "#error caf\\xe9 \\x1b[31mred\\x01")); // escaped on the console
    CHECK_FALSE(contains(run.output, "\x1b"));
    const auto report = nlohmann::json::parse(read_text(folder.at("r.json")));
    CHECK(report.at("summary").at("worst") == "CE");
    CHECK(contains(report.at("cases")[0].at("detail").get<std::string>(), "#error caf\xef\xbf\xbd \x1b[31mred\x01"));
    const std::string xml = read_text(folder.at("r.xml"));
    check_well_formed_xml(xml);
    CHECK(contains(xml, "#error caf\\xe9 \\x1b[31mred\\x01"));
}

TEST_CASE("a report that cannot be written is a setup error naming it, exit 7") {
    TempFolder folder;
    const auto solution = folder.write("sol.cu", read_text(naive));
    const auto nvcc = failing_nvcc(folder, "sol.cu(1): error: broken\\n");
    for (const char *option : {"--json", "--junit"}) {
        const auto run = judge(judged(folder, solution, nvcc, {option, "/dev/full"}));
        CAPTURE(run.output);
        CHECK(run.status == 7);
        CHECK(contains(run.output, std::string("judge: setup: cannot write the ") + option +
                                       " report /dev/full: No space left on device"));
    }
}

TEST_CASE("--json and --junit naming one file are conflicting options, exit 64") {
    TempFolder folder;
    const auto run = judge({naive, "--json", folder.at("r"), "--junit", folder.at("r")});
    CHECK(run.status == 64);
    CHECK(contains(run.output, "--json and --junit name the same file"));
    CHECK_FALSE(fs::exists(folder.at("r")));
}

TEST_CASE("without a GPU the JUnit file reports an error saying so, not an empty passing suite") {
    if (gpu_present()) return;
    TempFolder folder;
    const auto solution = folder.write("sol.cu", read_text(naive));
    const auto run = judge(judged(folder, solution, building_nvcc(folder), {"--junit", folder.at("r.xml")}));
    CAPTURE(run.output);
    CHECK(run.status == 6);
    const std::string xml = read_text(folder.at("r.xml"));
    check_well_formed_xml(xml);
    CHECK(contains(xml, "tests=\"1\""));
    CHECK(contains(xml, "errors=\"1\""));
    CHECK(contains(xml, "<error type=\"no GPU\" message=\"no GPU: "));
}

TEST_CASE("a solution's file name with control bytes is printed escaped and reported as valid text") {
    TempFolder folder;
    const auto solution = folder.write("evil\x1b[2J\xe9.cu", read_text(naive));
    const auto nvcc = failing_nvcc(folder, "broken\\n");
    const auto run =
        judge(judged(folder, solution, nvcc, {"--json", folder.at("r.json"), "--junit", folder.at("r.xml")}));
    CAPTURE(run.output);
    CHECK(run.status == 4);
    CHECK_FALSE(contains(run.output, "\x1b"));
    CHECK(contains(run.output, "evil\\x1b[2J\\xe9.cu  CE:\n"));
    CHECK(contains(nlohmann::json::parse(read_text(folder.at("r.json"))).at("solution").get<std::string>(),
                   "evil\x1b[2J\xef\xbf\xbd.cu"));
    check_well_formed_xml(read_text(folder.at("r.xml")));
    const auto bad_name = judge({folder.write("evil\x1b[2J.txt", "")});
    CHECK(bad_name.status == 64);
    CHECK(contains(unwrapped(bad_name.output), "evil\\x1b[2J.txt: a solution is a CUDA source file ending in .cu"));
    CHECK_FALSE(contains(bad_name.output, "\x1b"));
}

TEST_CASE("a FIFO named x.cu is refused at once with exit 64, never read") {
    TempFolder folder;
    const std::string fifo = folder.at("x.cu");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    const auto run = judge({fifo, "--cache-dir", folder.at("cache")});
    CHECK(run.status == 64);
    CHECK(contains(run.output, "x.cu: is a FIFO, not a regular file"));
}

// The rungs are numbered so that they sort in ladder order; the seed's two names (the
// README's first command among them) are kept through links.
TEST_CASE("solutions/naive.cu and solutions/tiled.cu, the seed's names, are relative links to rungs 1 and 2") {
    for (const auto &[name, target] : {std::pair{"naive.cu", "01-naive.cu"}, std::pair{"tiled.cu", "02-tiled.cu"}}) {
        CAPTURE(name);
        const fs::path link = fs::path(GEMM_SOURCE_DIR) / "solutions" / name;
        REQUIRE(fs::is_symlink(link));
        CHECK(fs::read_symlink(link) == target);
        CHECK_FALSE(why_not_a_solution_file(link.string()));
        if (skip_without_nvcc()) return;
        const auto run = judge(
            {link.string(), "--case", "01-one-by-one", "--cache-dir", test::shared_compile_cache(), "--no-history"});
        CHECK((run.status == 0 || run.status == 6)); // AC, or compiled and no GPU to run it on
        CHECK(contains(run.output, name));
    }
}

// LeetGPU's matrix multiplication has this judge's solve(), so its users bring their files
// as they are: the older starter (`#include "solve.h"`, a plain `void solve`) through the
// judge's own solve.h, the current one (`extern "C"`) directly.
TEST_CASE("both LeetGPU starter forms compile as they are and their solve() is found") {
    if (skip_without_nvcc()) return;
    for (const char *file : {"solve-h-starter.cu", "extern-c-starter.cu"}) {
        CAPTURE(file);
        check_compiled_and_loaded(judge({std::string(GEMM_SOURCE_DIR) + "/harness/tests/leetgpu/" + file,
                                         "--no-history", "--cache-dir", test::shared_compile_cache(), "--case",
                                         "sample/01-one-by-one", "--time-budget", "0.01", "--no-shrink"}));
    }
}

TEST_CASE("a solution folder's own solve.h is found before the judge's") {
    if (skip_without_nvcc()) return;
    TempFolder folder;
    const std::string source = read_text(std::string(GEMM_SOURCE_DIR) + "/harness/tests/leetgpu/solve-h-starter.cu");
    const std::string solution = folder.write("mine/solve.cu", source);
    folder.write("mine/solve.h", "#error this folder's own solve.h\n");
    const auto run = judge(quick({solution, "--no-history"}, folder));
    CAPTURE(run.output);
    CHECK(run.status == 4);
    CHECK(contains(run.output, "this folder's own solve.h"));
}

TEST_CASE("--list, case show and case validate report a wrong expected C alike, exit 5") {
    TempFolder folder;
    folder.write("suite/sample/01-good.case", "shape 1 1 1\ndata explicit\nA\n2\nB\n3\nC\n6\n");
    const auto wrong = folder.write("suite/sample/02-wrong-c.case", "shape 1 1 1\ndata explicit\nA\n2\nB\n3\nC\n7\n");
    const std::string why = wrong + ":8: expected C at row 0, col 0 is 7 but A·B is 6";
    const std::string suite = folder.at("suite");
    for (const std::vector<std::string> &args : {std::vector<std::string>{"--list", "--testcases", suite},
                                                 {"--testcases", suite, "case", "show", "02-wrong-c"},
                                                 {"--testcases", suite, "case", "validate"},
                                                 {"--testcases", suite, "case", "validate", wrong}}) {
        const auto run = judge(args, Stream::err);
        CAPTURE(args.at(0));
        CAPTURE(run.output);
        CHECK(run.status == 5);
        CHECK(contains(unwrapped(run.output), why));
    }
    const auto good = judge({"--testcases", suite, "case", "show", "01-good"}, Stream::out);
    CHECK(good.status == 0);
    CHECK(contains(good.output, "sample/01-good"));
}

TEST_CASE("a dangling link, a loop of links or a folder named x.case in a suite is a testcase error, exit 5") {
    TempFolder folder;
    folder.write("suite/secret/01-good.case", "shape 2 3 4\ndata normal\nseed 1\n");
    fs::create_symlink(folder.at("suite/secret/gone.case"), folder.at("suite/secret/02-dangling.case"));
    fs::create_symlink(folder.at("suite/secret/03-loop.case"), folder.at("suite/secret/03-loop.case"));
    fs::create_directories(folder.at("suite/secret/04-folder.case"));
    const auto list = judge({"--list", "--testcases", folder.at("suite")});
    CAPTURE(list.output);
    CHECK(list.status == 5);
    CHECK(contains(list.output, "secret/01-good  2×3×4"));
    CHECK(contains(unwrapped(list.output), "02-dangling.case:0: is a symbolic link to "));
    CHECK(contains(unwrapped(list.output), "03-loop.case:0: is a loop of symbolic links"));
    CHECK(contains(unwrapped(list.output), "04-folder.case:0: is a folder, not a testcase file"));
    const auto run = judge({naive, "--testcases", folder.at("suite"), "--cache-dir", folder.at("cache")});
    CHECK(run.status == 5);
    CHECK(contains(run.output, "the testcases are invalid; nothing was judged"));
}

TEST_CASE("case new refuses a negative seed as the user wrote it") {
    TempFolder folder;
    fs::create_directories(folder.at("suite"));
    const auto run =
        judge({"--testcases", folder.at("suite"), "case", "new", "secret/x", "--shape", "2", "2", "2", "--seed", "-5"});
    CHECK(run.status == 64);
    CHECK(contains(run.output, "--seed -5: seed must be between 0 and 2^59 - 1"));
    CHECK_FALSE(contains(run.output, "18446744073709551611"));
    CHECK(fs::is_empty(folder.at("suite")));
}

TEST_CASE("the judge says it is compiling on a terminal's stderr, and not when stderr is a pipe") {
    TempFolder folder;
    const auto solution = folder.write("sol.cu", read_text(naive));
    const auto args = judged(folder, solution, failing_nvcc(folder, "broken\\n"));
    CHECK_FALSE(contains(judge(args).output, "compiling"));

    const int controller = posix_openpt(O_RDWR | O_NOCTTY);
    if (controller < 0 || grantpt(controller) != 0 || unlockpt(controller) != 0) return; // no pseudo-terminals
    const int terminal = open(ptsname(controller), O_RDWR | O_NOCTTY);
    REQUIRE(terminal >= 0);
    std::vector<std::string> argv = args;
    argv.insert(argv.begin(), judge_program);
    const pid_t child = fork();
    if (child == 0) {
        dup2(terminal, STDERR_FILENO);
        const int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        std::vector<char *> c_argv;
        for (auto &a : argv) c_argv.push_back(a.data());
        c_argv.push_back(nullptr);
        execv(c_argv[0], c_argv.data());
        _exit(127);
    }
    close(terminal);
    std::string seen;
    char buffer[4096];
    for (ssize_t n; (n = read(controller, buffer, sizeof buffer)) > 0;) seen.append(buffer, n);
    int status = 0;
    waitpid(child, &status, 0);
    close(controller);
    CHECK(WEXITSTATUS(status) == 4);
    CHECK(contains(seen, "compiling " + solution + "…"));
}

// ---- The practitioner's loop: the command line's conventions, end to end ---------------

TEST_CASE("./judge help exits 0 with the main help, and help rank with rank's") {
    const auto help = judge({"help"}, Stream::out);
    CHECK(help.status == 0);
    CHECK(contains(help.output, "Usage: ./judge [OPTIONS] [SOLUTION]"));
    CHECK(contains(help.output, "Exit status:"));
    const auto rank = judge({"help", "rank"}, Stream::out);
    CHECK(rank.status == 0);
    CHECK(contains(rank.output, "Usage: ./judge rank [OPTIONS] SOLUTION"));
    const auto unknown = judge({"help", "nosuch"});
    CHECK(unknown.status == 64);
    CHECK(contains(unknown.output, "judge: unknown command 'nosuch'; the commands are "));
}

TEST_CASE("a mistyped option is judge: on stderr with the nearest option, stdout empty, exit 64") {
    const auto err = judge({naive, "--revael"}, Stream::err);
    CHECK(err.status == 64);
    CHECK(
        err.output ==
        "judge: unknown option --revael; did you mean --reveal?\nRun './judge --help' for the options and commands.\n");
    CHECK(judge({naive, "--revael"}, Stream::out).output.empty());
}

TEST_CASE("a mistyped --case, or one in --list, names the nearest testcase, exit 64") {
    for (const std::vector<std::string> &args :
         {std::vector<std::string>{naive, "--case", "04-prims"}, {"--list", "--case", "04-prims"}}) {
        const auto err = judge(args, Stream::err);
        CAPTURE(err.output);
        CHECK(err.status == 64);
        CHECK(err.output == "judge: --case 04-prims: no testcase has this name; did you mean 04-primes?\n");
    }
}

TEST_CASE("case new takes --shape as MxNxK, as the judge does, or as M N K") {
    TempFolder folder;
    fs::create_directories(folder.at("suite"));
    const std::string suite = folder.at("suite");
    const auto crossed = judge({"--testcases", suite, "case", "new", "secret/x", "--shape", "33x17x65"});
    CAPTURE(crossed.output);
    CHECK(crossed.status == 0);
    CHECK(contains(read_text(folder.at("suite/secret/x.case")), "shape 33 17 65\n"));
    const auto apart = judge({"--testcases", suite, "case", "new", "--shape", "33", "17", "65", "secret/y"});
    CHECK(apart.status == 0);
    CHECK(contains(read_text(folder.at("suite/secret/y.case")), "shape 33 17 65\n"));
}

TEST_CASE("without a GPU the judge says why once on stderr, in two lines of at most 100 columns, exit 6") {
    if (gpu_present()) return;
    TempFolder folder;
    const auto solution = folder.write("sol.cu", read_text(naive));
    const auto nvcc = building_nvcc(folder);
    const auto err = judge(judged(folder, solution, nvcc), Stream::err);
    CAPTURE(err.output);
    CHECK(err.status == 6);
    const auto lines = lines_of(err.output);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0].rfind("judge: no GPU: ", 0) == 0);
    for (const auto &line : lines) CHECK(display_width(line) <= 100);
    CHECK_FALSE(contains(err.output, "CUDA said"));
    // stdout holds the report: the compile line, with the target chosen without a GPU, and
    // not the diagnostic.
    const auto out = judge(judged(folder, solution, nvcc), Stream::out);
    CHECK(out.status == 6);
    CHECK(contains(out.output, "sol.cu  compiled for sm_90a (no GPU found; --arch to choose); solve() found"));
    CHECK_FALSE(contains(out.output, "judge: no GPU"));
    // compare's two sides find the one machine without a GPU: said once.
    const auto other = folder.write("other.cu", read_text(naive));
    const auto compare =
        judge({"compare", solution, other, "--nvcc", nvcc, "--cache-dir", folder.at("cache"), "--no-history"});
    CAPTURE(compare.output);
    CHECK(compare.status == 6);
    CHECK(occurrences(compare.output, "judge: no GPU: ") == 1);
    CHECK(occurrences(compare.output, "solve() found") == 2);
}

TEST_CASE("case validate names every file meant as a case that never runs, and why, exit 5") {
    TempFolder folder;
    folder.write("suite/secret/01-good.case", "shape 2 3 4\ndata normal\nseed 1\n");
    const auto mine = folder.write("suite/mine/02-mine.case", "shape 2 3 4\ndata normal\nseed 1\n");
    const auto top = folder.write("suite/03-top.case", "shape 2 3 4\ndata normal\nseed 1\n");
    const auto upper = folder.write("suite/secret/04-upper.CASE", "shape 2 3 4\ndata normal\nseed 1\n");
    const auto nameless = folder.write("suite/secret/.case", "shape 2 3 4\ndata normal\nseed 1\n");
    folder.write("elsewhere/05-linked.case", "shape 2 3 4\ndata normal\nseed 1\n");
    fs::create_directory_symlink(folder.at("elsewhere"), folder.at("suite/secret/linked"));
    const std::string suite = folder.at("suite");
    const auto run = judge({"--testcases", suite, "case", "validate"}, Stream::err);
    CAPTURE(run.output);
    CHECK(run.status == 5);
    const std::string categories = "(sample, secret, perf, rank, huge)";
    CHECK(lines_of(unwrapped(run.output)) ==
          std::vector<std::string>{
              top + ":0: never runs unless named: it is in no category folder " + categories,
              mine + ":0: never runs unless named: the folder 'mine' is not a category " + categories,
              nameless + ":0: never runs: the suite's loader reads only names ending in .case",
              upper + ":0: never runs: the suite's loader reads only names ending in .case",
              folder.at("suite/secret/linked") +
                  ":0: never runs: a link to a folder, which the suite's loader does not follow; its 1 .case file(s) "
                  "are never read",
          });
    CHECK(judge({"--testcases", suite, "case", "validate"}, Stream::out).output.empty());
    const auto one = judge({"--testcases", suite, "case", "validate", mine}, Stream::err);
    CHECK(one.status == 5);
    CHECK(contains(unwrapped(one.output), "the folder 'mine' is not a category"));
    // --list lists what runs and says that something never does, without failing.
    const auto list = judge({"--list", "--testcases", suite});
    CAPTURE(list.output);
    CHECK(list.status == 0);
    CHECK(contains(list.output, "secret/01-good  2×3×4"));
    CHECK(
        contains(list.output, "judge: note: 5 file(s) meant as testcases never run; ./judge case validate names them"));
}
