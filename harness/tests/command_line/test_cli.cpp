// The command line of ./judge and the --case selector.
#include <doctest/doctest.h>

#include "command_line/options/cli.hpp"
#include "command_line/options/help_format.hpp"
#include "command_line/options/usage_errors.hpp"
#include "common/terminal_text.hpp"
#include "test_support.hpp"
#include "testcases/testcase.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <variant>
#include <vector>

using namespace gemm;
using gemm::test::lines_of;
using gemm::test::occurrences;
using gemm::test::TempFolder;
namespace fs = std::filesystem;

namespace {

const std::string solution = GEMM_SOURCE_DIR "/solutions/02-tiled.cu";
const std::string testcases = GEMM_SOURCE_DIR "/testcases";

// What parse_command_line returned, with what it printed captured instead of shown.
struct Parsed {
    std::variant<JudgeOptions, int> result;
    std::string out, err;
};

Parsed parse(std::vector<std::string> args) {
    args.insert(args.begin(), "judge");
    std::vector<const char *> argv;
    for (const auto &a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    auto *old_out = std::cout.rdbuf(out.rdbuf());
    auto *old_err = std::cerr.rdbuf(err.rdbuf());
    auto result =
        parse_command_line(static_cast<int>(argv.size()), argv.data(), {"/default/testcases", "/opt/nvcc", "9.9.9"});
    std::cout.rdbuf(old_out);
    std::cerr.rdbuf(old_err);
    return {std::move(result), out.str(), err.str()};
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

} // namespace

TEST_CASE("a bare solution gets every default") {
    const auto p = parse({solution});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    const auto &options = std::get<JudgeOptions>(p.result);
    CHECK(options.solution == solution);
    CHECK(options.selection.cases.empty());
    CHECK(options.selection.testcases_dir == "/default/testcases");
    CHECK(options.compile.nvcc == "/opt/nvcc");
    CHECK(options.compile.arch.empty());
    CHECK(options.reports.json_path.empty());
    CHECK_FALSE(options.compile.cache_dir.empty());
    CHECK(options.case_run.baseline == "perf");
    CHECK(options.case_run.time_budget_s == 0.3);
    CHECK_FALSE(options.case_run.time_budget_given);
    CHECK(options.compile.timeout_s == 120);
    CHECK(options.compile.memory_gib == 8);
    CHECK_FALSE(options.reports.show_output);
    CHECK_FALSE(options.selection.list);
}

TEST_CASE("the compile limits are options, and a limit out of range is a bad command line naming it") {
    const auto p = parse({solution, "--compile-timeout", "30", "--compile-memory", "2.5"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    CHECK(std::get<JudgeOptions>(p.result).compile.timeout_s == 30);
    CHECK(std::get<JudgeOptions>(p.result).compile.memory_gib == 2.5);
    for (const auto &[option, value] : {std::pair{"--compile-timeout", "0"}, std::pair{"--compile-memory", "0.1"}}) {
        const auto bad = parse({solution, option, value});
        REQUIRE(std::holds_alternative<int>(bad.result));
        CHECK(std::get<int>(bad.result) == 64);
        CHECK(contains(bad.err, option));
    }
}

TEST_CASE("every option lands in its field") {
    const auto p =
        parse({solution, "--testcases", testcases, "--arch", "sm_90", "--json", "out.json", "--time-budget", "1.5",
               "--baseline", "all", "--show-output", "--nvcc", "/bin/sh", "--cache-dir", "/tmp/cache"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    const auto &options = std::get<JudgeOptions>(p.result);
    CHECK(options.selection.testcases_dir == testcases);
    CHECK(options.compile.arch == "sm_90");
    CHECK(options.reports.json_path == "out.json");
    CHECK(options.case_run.time_budget_s == 1.5);
    CHECK(options.case_run.time_budget_given);
    CHECK(options.case_run.baseline == "all");
    CHECK(options.reports.show_output);
    CHECK(options.compile.nvcc == "/bin/sh");
    CHECK(options.compile.cache_dir == "/tmp/cache");
}

TEST_CASE("--case may be repeated and keeps its order") {
    const auto p = parse({solution, "--case", "sample", "--case", "secret/04-primes", "--case", "07-mult32-minus-one"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    CHECK(std::get<JudgeOptions>(p.result).selection.cases ==
          std::vector<std::string>{"sample", "secret/04-primes", "07-mult32-minus-one"});
}

TEST_CASE("a baseline other than perf, all or none is a usage error") {
    const auto p = parse({solution, "--baseline", "sometimes"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 64);
    CHECK_FALSE(p.err.empty());
}

TEST_CASE("--baseline none is accepted") {
    const auto p = parse({solution, "--baseline", "none"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    CHECK(std::get<JudgeOptions>(p.result).case_run.baseline == "none");
}

TEST_CASE("--help prints the usage and returns 0") {
    const auto p = parse({"--help"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 0);
    CHECK(contains(p.out, "--case"));
    CHECK(contains(p.out, "Exit status"));
}

TEST_CASE("a missing solution is a usage error") {
    const auto p = parse({});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 64);
    CHECK(contains(p.err, "solution"));
}

TEST_CASE("a solution file that does not exist is a usage error") {
    const auto p = parse({GEMM_SOURCE_DIR "/solutions/no-such-file.cu"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 64);
}

TEST_CASE("--list needs no solution") {
    const auto p = parse({"--list"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    CHECK(std::get<JudgeOptions>(p.result).selection.list);
    CHECK(std::get<JudgeOptions>(p.result).solution.empty());
}

TEST_CASE("a testcases folder that does not exist is a usage error") {
    const auto p = parse({solution, "--testcases", GEMM_SOURCE_DIR "/no-such-folder"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 64);
}

TEST_CASE("a time budget outside 0 to 60 seconds is a usage error") {
    for (const char *budget : {"61", "-1", "soon"}) {
        CAPTURE(budget);
        const auto p = parse({solution, "--time-budget", budget});
        REQUIRE(std::holds_alternative<int>(p.result));
        CHECK(std::get<int>(p.result) == 64);
    }
}

TEST_CASE("a number option's bad value is refused in the option's own terms") {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{solution, "--time-budget", "abc"}, "--time-budget: 'abc' is not a number of seconds (0 to 60)"},
        {{solution, "--time-budget", "61"}, "--time-budget: 61 is not in the range 0 to 60"},
        {{solution, "--stress", "2.5"}, "--stress: '2.5' is not a number of shapes (1 to 1000000)"},
        {{"rank", solution, "--spread-target", "tight"}, "--spread-target: 'tight' is not a fraction (0.0001 to 1)"},
        {{solution, "--shape", "3x3x3", "--seed", "seven"},
         "--seed: 'seven' is not a seed (a whole number from 0 to 2^59 - 1)"},
        {{solution, "--shape", "3x3x3", "--seed", "-5"}, "--seed -5: seed must be between 0 and 2^59 - 1"},
    };
    for (const auto &[args, message] : cases) {
        const auto p = parse(args);
        CAPTURE(p.err);
        REQUIRE(std::holds_alternative<int>(p.result));
        CHECK(std::get<int>(p.result) == 64);
        CHECK(contains(p.err, message));
        CHECK_FALSE(contains(p.err, ".000000")); // not CLI11's "Value abc not in range 0.000000 to 60.000000"
    }
}

TEST_CASE("case new keeps a negative seed negative, for the parser to refuse as written") {
    const auto p = parse({"case", "new", "secret/x", "--shape", "1", "1", "1", "--seed", "-5"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    CHECK(std::get<JudgeOptions>(p.result).case_command->seed == -5);
}

namespace {

// --help under COLUMNS=columns.
Parsed help_at(const char *columns, std::vector<std::string> args) {
    setenv("COLUMNS", columns, 1);
    auto p = parse(std::move(args));
    unsetenv("COLUMNS");
    return p;
}

} // namespace

TEST_CASE("--help fits the terminal's width ($COLUMNS), 80 columns by default") {
    for (const char *columns : {"60", "80"}) {
        const auto p = help_at(columns, {"--help"});
        CAPTURE(columns);
        for (const auto &line : lines_of(p.out)) {
            CAPTURE(line);
            CHECK(display_width(line) <= std::size_t(std::atoi(columns)));
        }
        CHECK(lines_of(p.out).size() > 40);
    }
    unsetenv("COLUMNS");
    for (const auto &line : lines_of(parse({"--help"}).out)) CHECK(display_width(line) <= 80); // not a terminal
}

TEST_CASE("the exit statuses are explained once, on the main help only") {
    CHECK(occurrences(help_at("80", {"--help"}).out, "Exit status") == 1);
    for (const std::vector<std::string> &sub : std::vector<std::vector<std::string>>{{"case", "new", "--help"},
                                                                                     {"case", "validate", "--help"},
                                                                                     {"rank", "--help"},
                                                                                     {"compare", "--help"},
                                                                                     {"history", "--help"},
                                                                                     {"cache", "info", "--help"}}) {
        const auto p = help_at("80", sub);
        CAPTURE(sub.at(0));
        CHECK(std::get<int>(p.result) == 0);
        CHECK_FALSE(contains(p.out, "Exit status"));
    }
    CHECK(contains(help_at("80", {"rank", "--help"}).out, "FP32 peak")); // its own footer stays
}

TEST_CASE("a solution path that is not a regular file is refused before it is read") {
    TempFolder folder;
    const std::string fifo = folder.at("pipe.cu");
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    fs::create_directories(folder.at("folder.cu"));
    for (const auto &[path, why] :
         std::vector<std::pair<std::string, std::string>>{{fifo, "not a regular file"}, {folder.at("folder.cu"), ""}}) {
        for (const std::vector<std::string> &args : {std::vector<std::string>{path}, {"rank", path}}) {
            const auto p = parse(args);
            CAPTURE(p.err);
            REQUIRE(std::holds_alternative<int>(p.result));
            CHECK(std::get<int>(p.result) == 64);
            CHECK(contains(p.err, why));
        }
    }
}

TEST_CASE("two report options naming the same file conflict") {
    TempFolder folder;
    const std::string report = folder.at("report.xml");
    const std::vector<std::vector<std::string>> conflicts = {
        {solution, "--json", report, "--junit", report},
        {solution, "--json", report, "--junit", folder.at("./sub/../report.xml")},
        {"rank", solution, "--json", folder.at("plot.png"), "--plot", folder.at("plot.png")},
    };
    fs::create_directories(folder.at("sub"));
    for (const auto &args : conflicts) {
        const auto p = parse(args);
        CAPTURE(p.err);
        REQUIRE(std::holds_alternative<int>(p.result));
        CHECK(std::get<int>(p.result) == 64);
        // A long temporary path wraps the message: its words are read unwrapped.
        CHECK(contains(gemm::test::unwrapped(p.err), "name the same file"));
        CHECK(contains(gemm::test::unwrapped(p.err), "conflicting options"));
    }
    CHECK(std::holds_alternative<JudgeOptions>(
        parse({solution, "--json", folder.at("a.json"), "--junit", folder.at("a.xml")}).result));
}

TEST_CASE("an unknown option is a usage error") {
    const auto p = parse({solution, "--fast"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 64);
}

TEST_CASE("a selector picks a case by its exact name") {
    CHECK(case_selected("secret/04-primes", "secret/04-primes"));
    CHECK_FALSE(case_selected("secret/04-primes", "secret/05-mult16-minus-one"));
    CHECK(case_selected("top", "top"));
}

TEST_CASE("a selector picks every case of a category") {
    CHECK(case_selected("secret/04-primes", "secret"));
    CHECK(case_selected("perf/01-cube-4096", "perf"));
    CHECK_FALSE(case_selected("secret/04-primes", "perf"));
    CHECK_FALSE(case_selected("sample/01-one-by-one", "secret"));
}

TEST_CASE("a selector picks a case by the part after its category") {
    CHECK(case_selected("secret/04-primes", "04-primes"));
    CHECK_FALSE(case_selected("sample/04-primes-too", "04-primes"));
}

TEST_CASE("a selector never matches a mere substring") {
    CHECK_FALSE(case_selected("secret/04-primes", "primes"));
    CHECK_FALSE(case_selected("secret/04-primes", "04"));
    CHECK_FALSE(case_selected("secret/04-primes", "secre"));
    CHECK_FALSE(case_selected("secret/04-primes", "ecret/04-primes"));
    CHECK_FALSE(case_selected("secret/04-primes", "secret/04"));
    CHECK_FALSE(case_selected("secret/04-primes", ""));
    CHECK_FALSE(case_selected("top", "to"));
}

TEST_CASE("--version prints the version and returns 0") {
    const auto p = parse({"--version"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 0);
    CHECK(contains(p.out, "gemm-judge 9.9.9"));
}

TEST_CASE("options another mode would ignore are refused, naming both") {
    const std::vector<std::vector<std::string>> conflicts = {
        {solution, "--sanitize", "--stress", "3"},
        {solution, "--shape", "3x3x3", "--case", "sample"},
        {solution, "--shape", "3x3x3", "--category", "perf"},
        {solution, "--stress", "3", "--case", "sample"},
        {solution, "--stress-max", "64"},
        {solution, "--seed", "3"},
        {solution, "--data", "normal"},
        {"--list", "--shape", "3x3x3"},
    };
    for (const auto &args : conflicts) {
        CAPTURE(args.at(1));
        const auto p = parse(args);
        REQUIRE(std::holds_alternative<int>(p.result));
        CHECK(std::get<int>(p.result) == 64);
        CHECK(contains(p.err, "--"));
    }
}

TEST_CASE("--shape, --data and --seed are checked as a case, each problem named by its option") {
    const auto bad_data = parse({solution, "--shape", "3x4x5", "--data", "uniform 1 1"});
    REQUIRE(std::holds_alternative<int>(bad_data.result));
    CHECK(contains(bad_data.err, "--data 'uniform 1 1': uniform needs LOW < HIGH"));
    const auto bad_seed = parse({solution, "--stress", "5", "--seed", "-1"});
    REQUIRE(std::holds_alternative<int>(bad_seed.result));
    CHECK(contains(bad_seed.err, "--seed -1: "));
    const auto good = parse({solution, "--shape", "3x4x5", "--data", "normal", "--seed", "7"});
    REQUIRE(std::holds_alternative<JudgeOptions>(good.result));
    CHECK(std::get<JudgeOptions>(good.result).selection.seed == 7);
    CHECK(std::get<JudgeOptions>(good.result).selection.shape == std::vector<int>{3, 4, 5});
}

TEST_CASE("--arch takes a target name, --include existing folders made absolute") {
    const auto banana = parse({solution, "--arch", "banana"});
    REQUIRE(std::holds_alternative<int>(banana.result));
    CHECK(contains(banana.err, "--arch banana"));
    const auto p = parse({solution, "--arch", "sm_90a", "--include", GEMM_SOURCE_DIR "/harness/../harness"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    CHECK(std::get<JudgeOptions>(p.result).compile.arch == "sm_90a");
    CHECK(std::get<JudgeOptions>(p.result).compile.include_dirs ==
          std::vector<std::string>{GEMM_SOURCE_DIR "/harness"});
}

TEST_CASE("cache info and cache clean need no solution, and take --cache-dir after the action") {
    const auto p = parse({"cache", "clean", "--cache-dir", "/tmp/c"});
    REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
    CHECK(std::get<JudgeOptions>(p.result).cache_command == "clean");
    CHECK(std::get<JudgeOptions>(p.result).compile.cache_dir == "/tmp/c");
}

// ---- The command line's conventions: help, errors, --shape -------------------------------

namespace {

// Every command and subcommand, as typed after ./judge.
const std::vector<std::vector<std::string>> every_command = {{"rank"},
                                                             {"compare"},
                                                             {"history"},
                                                             {"leaderboard"},
                                                             {"case"},
                                                             {"case", "new"},
                                                             {"case", "validate"},
                                                             {"case", "show"},
                                                             {"case", "export"},
                                                             {"case", "import"},
                                                             {"cache"},
                                                             {"cache", "info"},
                                                             {"cache", "clean"},
                                                             {"help"}};

std::vector<std::string> with_help_first(std::vector<std::string> command) {
    command.insert(command.begin(), "help");
    return command;
}

// Parser notation that must never reach --help: CLI11's flag defaults, types, ranges and labels.
const std::vector<std::string> parser_artifacts = {
    "{false}", "{true}",   "FLOAT",  "TEXT:",     "INT:", "UINT",  ":FILE", ":DIR", "in [",
    "[1 - ",   "REQUIRED", "Needs:", "Excludes:", "Env:", "=perf", "=120",  " x 3", "SUBCOMMAND"};

} // namespace

TEST_CASE("./judge help prints the main help and exits 0, and help COMMAND prints that command's") {
    const auto main_help = parse({"help"});
    REQUIRE(std::holds_alternative<int>(main_help.result));
    CHECK(std::get<int>(main_help.result) == 0);
    CHECK(main_help.out == parse({"--help"}).out);
    CHECK(main_help.err.empty());
    for (const auto &command : every_command) {
        std::string path;
        for (const auto &word : command) path += (path.empty() ? "" : " ") + word;
        CAPTURE(path);
        const auto p = parse(with_help_first(command));
        REQUIRE(std::holds_alternative<int>(p.result));
        CHECK(std::get<int>(p.result) == 0);
        CHECK(contains(p.out, "Usage: ./judge " + path));
        auto dashed = command;
        dashed.push_back("--help");
        CHECK(p.out == parse(dashed).out); // the same text as COMMAND --help
    }
}

TEST_CASE("./judge help with an unknown command is exit 64 naming it and listing the commands") {
    const auto p = parse({"help", "nosuch"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 64);
    CHECK(p.out.empty());
    CHECK(p.err == "judge: unknown command 'nosuch'; the commands are case, cache, rank, compare, history, "
                   "leaderboard, problems, batch, serve or help\nRun './judge --help' for the options and commands.\n");
    CHECK(parse({"help", "case", "nwe"}).err ==
          "judge: case: unknown command 'nwe'; did you mean 'new'?\nRun './judge help case' for its options.\n");
}

TEST_CASE("every usage error is judge: and what is wrong on stderr, then where the options are, exit 64") {
    const std::string hint = "Run './judge --help' for the options and commands.";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{solution, "--revael"}, "judge: unknown option --revael; did you mean --reveal?"},
        {{solution, "--jsno", "r.json"}, "judge: unknown option --jsno; did you mean --json?"},
        {{solution, "--time-budgte=1"}, "judge: unknown option --time-budgte; did you mean --time-budget?"},
        {{solution, "--time", "1"}, "judge: unknown option --time; did you mean --time-budget?"},
        {{solution, "--spread-target", "0.1"},
         "judge: unknown option --spread-target; it is an option of ./judge rank and ./judge compare"},
        {{solution, "--frobnicate"}, "judge: unknown option --frobnicate"},
        {{"case", "new", "secret/x", "--shap", "1", "2", "3"},
         "judge: case new: unknown option --shap; did you mean --shape?"},
        {{"rank", solution, "--spread-targte", "0.1"},
         "judge: rank: unknown option --spread-targte; did you mean --spread-target?"},
        {{"rnak", solution}, "judge: unknown command 'rnak'; did you mean 'rank'?"},
        {{"comapre", "a.cu", "b.cu"}, "judge: unknown command 'comapre'; did you mean 'compare'?"},
        {{"frobnicate"},
         "judge: 'frobnicate' is neither a command (case, cache, rank, compare, history, leaderboard, problems, batch, "
         "serve or "
         "help) "
         "nor "
         "a .cu solution"},
        {{"case", "nwe", "secret/x"}, "judge: case: unknown command 'nwe'; did you mean 'new'?"},
        {{"cache", "nosuch"}, "judge: cache: unknown command 'nosuch'; the commands are info or clean"},
        {{"case"}, "judge: case: needs a command: new, validate, show, export or import"},
        {{"rank"}, "judge: rank: SOLUTION is missing: the .cu file to rank"},
        {{"case", "new", "secret/x"}, "judge: case new: --shape MxNxK is missing"},
        {{}, "judge: no solution given: name a .cu file (./judge solutions/tiled.cu) or a command"},
        {{solution, solution},
         "judge: unexpected argument '" + solution +
             "'; the judge takes one solution (./judge compare OLD NEW "
             "takes two)"},
        {{solution, "--shape"}, "judge: --shape needs a value: MxNxK"},
        {{solution, "--shape", "4x5x6", "--case", "sample"}, "judge: --case cannot be used with --shape"},
        {{solution, "--stress-max", "64"}, "judge: --stress-max needs --stress"},
        {{solution, "--precision", "fp23"},
         "judge: --precision: 'fp23' is not one of fp32, tf32, bf16; did you mean fp32?"},
        {{solution, "--baseline", "sometimes"}, "judge: --baseline: 'sometimes' is not one of perf, all, none"},
        {{solution, "--compile-timeout", "0"}, "judge: --compile-timeout: 0 is not in the range 1 to 3600"},
        {{solution, "--testcases", "/no/such/folder"}, "judge: --testcases: /no/such/folder: no such folder"},
        {{"case", "new", "secret/x", "--shape", "1", "2", "3", "--time-limit", "soon"},
         "judge: case new: --time-limit: 'soon' is not a number of seconds"},
        {{"case", "import", "secret/x", "/no/such.in"}, "judge: case import: IN: /no/such.in: no such file"},
        {{"--list", "--testcases", "\x1b[2J"}, "judge: --testcases: \\x1b[2J: no such folder"},
    };
    for (const auto &[args, first_line] : cases) {
        const auto p = parse(args);
        CAPTURE(args.empty() ? std::string("(none)") : args.front());
        CAPTURE(p.err);
        REQUIRE(std::holds_alternative<int>(p.result));
        CHECK(std::get<int>(p.result) == 64);
        CHECK(p.out.empty());
        // The message is broken at spaces into lines of 100 columns, its later lines indented by two.
        const auto lines = lines_of(p.err);
        REQUIRE(lines.size() >= 2);
        std::string message = lines[0];
        for (std::size_t i = 1; i + 1 < lines.size(); ++i) message += " " + lines[i].substr(2);
        CHECK(message == first_line);
        for (const auto &line : lines) CHECK(display_width(line) <= console_width);
        CHECK((lines.back() == hint ||
               (lines.back().rfind("Run './judge help ", 0) == 0 && contains(lines.back(), "' for its options."))));
        CHECK_FALSE(contains(p.err, "\x1b"));
    }
}

TEST_CASE("--help shows no parser notation: value names, defaults in words, flags bare") {
    std::vector<std::vector<std::string>> helps = {{"--help"}};
    for (auto command : every_command) {
        command.push_back("--help");
        helps.push_back(command);
    }
    for (const auto &args : helps) {
        const auto p = help_at("100", args);
        CAPTURE(args.front());
        for (const auto &artifact : parser_artifacts) CHECK_MESSAGE(!contains(p.out, artifact), artifact);
        for (const auto &line : lines_of(p.out)) CHECK(display_width(line) <= 100);
    }
    const std::string main_help = help_at("100", {"--help"}).out;
    for (const char *expected : {"  --no-shrink  ", "  --shape MxNxK  ", "(default: 120)", "(default: fp32)",
                                 "  SOLUTION  ", "Usage: ./judge [OPTIONS] [SOLUTION]", "./judge help COMMAND"})
        CHECK_MESSAGE(contains(main_help, expected), expected);
    CHECK(contains(help_at("100", {"case", "new", "--help"}).out, "--shape MxNxK"));
    CHECK(contains(help_at("100", {"case", "new", "--help"}).out, "(required)"));
}

TEST_CASE("the help formatter renders a plain flag and a negated flag as their names alone") {
    CLI::App app{"a test command", "judge"};
    app.formatter(wrapping_formatter(80));
    bool verbose = false, keep_going = false, record = true;
    app.add_flag("--verbose", verbose, "every figure");
    app.add_flag("-k,--keep-going", keep_going, "do not stop after a few crashes");
    app.add_flag("!--no-record", record, "do not record");
    const std::string help = app.help();
    CAPTURE(help);
    const std::size_t column = 26; // the formatter's left column at 80: a third of the width
    CHECK(contains(help, "\n" + pad_to_width("  --verbose", column) + "every figure\n"));
    CHECK(contains(help, "\n" + pad_to_width("  -k, --keep-going", column) + "do not stop after a few crashes\n"));
    CHECK(contains(help, "\n" + pad_to_width("  --no-record", column) + "do not record\n"));
    for (const auto &artifact : parser_artifacts) CHECK_MESSAGE(!contains(help, artifact), artifact);
}

TEST_CASE("--shape takes MxNxK, M×N×K or M N K, before or after the solution") {
    const std::vector<std::vector<std::string>> spellings = {
        {solution, "--shape", "4x5x6"},
        {"--shape", "4x5x6", solution},
        {solution, "--shape", "4×5×6"},
        {"--shape", "4×5×6", solution},
        {solution, "--shape", "4", "5", "6"},
        {"--shape", "4", "5", "6", solution},
        {"--shape=4x5x6", solution},
        {solution, "--shape", "4 5 6"},
        {"--shape", "4x5x6", solution, "--seed", "3"},
    };
    for (const auto &args : spellings) {
        const auto p = parse(args);
        CAPTURE(p.err);
        REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
        CHECK(std::get<JudgeOptions>(p.result).selection.shape == std::vector<int>{4, 5, 6});
        CHECK(std::get<JudgeOptions>(p.result).solution == solution);
    }
    for (const auto &args : std::vector<std::vector<std::string>>{
             {"case", "new", "secret/x", "--shape", "33x17x65"},
             {"case", "new", "secret/x", "--shape", "33×17×65"},
             {"case", "new", "secret/x", "--shape", "33", "17", "65"},
             {"case", "new", "--shape", "33x17x65", "secret/x"},
             {"case", "new", "--shape", "33", "17", "65", "secret/x", "--seed", "4"}}) {
        const auto p = parse(args);
        CAPTURE(p.err);
        REQUIRE(std::holds_alternative<JudgeOptions>(p.result));
        const auto &command = std::get<JudgeOptions>(p.result).case_command;
        REQUIRE(command);
        CHECK(command->shape == std::vector<int>{33, 17, 65});
        CHECK(command->name == "secret/x");
    }
}

TEST_CASE("a malformed --shape says what is expected, exit 64") {
    const std::string expected = ": expected MxNxK or M N K, three whole numbers, e.g. 17x33x5";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{solution, "--shape", "axbxc"}, "judge: --shape axbxc" + expected},
        {{solution, "--shape", "4x5x99999999999"}, "judge: --shape 4x5x99999999999" + expected},
        {{"case", "new", "secret/x", "--shape", "4xq"},
         "judge: case new: --shape 4xq: expected whole numbers joined by x or spaces, e.g. 17x33x5 (a"},
        {{solution, "--shape", "0x5x6"}, "judge: --shape 0x5x6: M must be between 1 and 2147483647, got 0"},
    };
    for (const auto &[args, message] : cases) {
        const auto p = parse(args);
        CAPTURE(p.err);
        REQUIRE(std::holds_alternative<int>(p.result));
        CHECK(std::get<int>(p.result) == 64);
        CHECK(lines_of(p.err).at(0) == message);
    }
    // How many sizes a shape takes is its problem's: checked once the problem is chosen, for
    // the default problem with the same words.
    for (const auto &[args, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
             {{solution, "--shape", "4x5"}, "judge: --shape 4x5" + expected},
             {{solution, "--shape", "4x5x6x7"}, "judge: --shape 4x5x6x7" + expected},
             {{solution, "--shape", "4", "5"}, "judge: --shape 4x5" + expected},
             {{"--problem", "tensara/matmul-3d", solution, "--shape", "4x5x6"},
              "judge: --shape 4x5x6: tensara/matmul-3d takes 4 sizes, its dims n×m×k×l"},
             {{"--problem", "tensara/matmul-3d", solution, "--shape", "4x5x0x7"},
              "judge: --shape 4x5x0x7: k must be between 1 and 2147483647, got 0"},
         }) {
        std::vector<std::string> argv{gemm::test::judge_program, "--no-history"};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto run = gemm::run_captured(argv);
        CAPTURE(run.output);
        CHECK(run.exit_code == 64);
        CHECK(lines_of(run.output).at(0) == message);
    }
}

TEST_CASE("a missing solution file is exit 64 naming the nearest .cu file beside it") {
    const auto p = parse({GEMM_SOURCE_DIR "/solutions/tild.cu"});
    REQUIRE(std::holds_alternative<int>(p.result));
    CHECK(std::get<int>(p.result) == 64);
    CHECK(gemm::test::unwrapped(p.err) == "judge: " GEMM_SOURCE_DIR
                                          "/solutions/tild.cu: No such file or directory; did you mean " GEMM_SOURCE_DIR
                                          "/solutions/tiled.cu?\n");
}

TEST_CASE("parse_sizes reads whole numbers crossed by x, X or × or apart, as many as given") {
    CHECK(parse_sizes("17x33x5") == std::vector<int>{17, 33, 5});
    CHECK(parse_sizes("33X17X65") == std::vector<int>{33, 17, 65});
    CHECK(parse_sizes("33X17x65") == std::vector<int>{33, 17, 65});
    CHECK(parse_sizes("17×33×5") == std::vector<int>{17, 33, 5});
    CHECK(parse_sizes("17 33 5") == std::vector<int>{17, 33, 5});
    CHECK(parse_sizes("2147483647x1x1") == std::vector<int>{2147483647, 1, 1});
    CHECK(parse_sizes("2x3x4x5") == std::vector<int>{2, 3, 4, 5}); // a problem's dims: counted once it is chosen
    CHECK(parse_sizes("17 33") == std::vector<int>{17, 33});
    for (const char *bad : {"", "17x33x", "x17x33x5", "17x 33x5", "1.5x2x3", "2147483648x1x1"})
        CHECK_MESSAGE(parse_sizes(bad).empty(), bad);
}

TEST_CASE("a --case that names no testcase gets the nearest name, last part or category that does") {
    const std::vector<std::string> names = {"sample/01-one-by-one", "secret/04-primes", "perf/01-cube-4096"};
    CHECK(unmatched_case_selector({"04-prims"}, names) ==
          "--case 04-prims: no testcase has this name; did you mean 04-primes?");
    CHECK(unmatched_case_selector({"secret/04-prims"}, names) ==
          "--case secret/04-prims: no testcase has this name; did you mean secret/04-primes?");
    CHECK(unmatched_case_selector({"04-primes", "sampel"}, names) ==
          "--case sampel: no testcase has this name; did you mean sample?");
    CHECK(unmatched_case_selector({"zzz"}, names) ==
          "--case zzz: no testcase has this name (./judge --list names them)");
    CHECK(unmatched_case_selector({"04-primes", "perf"}, names).empty());
}

TEST_CASE("the nearest name is a slip of at most a third of the letters, or the only name begun") {
    CHECK(edit_distance("--verbos", "--verbose") == 1);
    CHECK(edit_distance("--jsno", "--json") == 1); // two neighbours swapped
    CHECK(edit_distance("rank", "rank") == 0);
    CHECK(edit_distance("", "abc") == 3);
    const std::vector<std::string> options = {"--verbose", "--version", "--json", "--junit", "--time-budget"};
    CHECK(nearest_name("--verbos", options) == "--verbose");
    CHECK(nearest_name("--jsno", options) == "--json");
    CHECK(nearest_name("--time", options) == "--time-budget");
    CHECK_FALSE(nearest_name("--fast", options));
    CHECK_FALSE(nearest_name("--ver", options)); // begins two
    CHECK(nearest_name("rnak", {"rank", "compare"}) == "rank");
    CHECK_FALSE(nearest_name("xyz", {"rank", "compare"}));
}

TEST_CASE("--selection names a selection of the cases without naming a category, and excludes --category") {
    const auto quick = parse({solution, "--selection", "quick"});
    REQUIRE(std::holds_alternative<JudgeOptions>(quick.result));
    CHECK(std::get<JudgeOptions>(quick.result).selection.categories == std::vector<std::string>{"sample"});
    const auto both = parse({solution, "--selection", "quick", "--category", "perf"});
    REQUIRE(std::holds_alternative<int>(both.result));
    CHECK(std::get<int>(both.result) == exit_status::usage);
    const auto unknown = parse({solution, "--selection", "everything"});
    REQUIRE(std::holds_alternative<int>(unknown.result));
    CHECK(contains(unknown.err, "--selection"));
}

TEST_CASE("--scratch-limit sets the GiB the solution may write to its folder, 1 by default") {
    const auto plain = parse({solution});
    REQUIRE(std::holds_alternative<JudgeOptions>(plain.result));
    CHECK(std::get<JudgeOptions>(plain.result).case_run.scratch_limit_gib == 1);
    const auto half = parse({solution, "--scratch-limit", "0.5"});
    REQUIRE(std::holds_alternative<JudgeOptions>(half.result));
    CHECK(std::get<JudgeOptions>(half.result).case_run.scratch_limit_gib == 0.5);
    const auto none = parse({solution, "--scratch-limit", "0"});
    REQUIRE(std::holds_alternative<int>(none.result));
    CHECK(contains(none.err, "--scratch-limit"));
}

TEST_CASE("serve is in ./judge --help, and ./judge help serve is its --help: wrapped, with defaults") {
    ChildSetup setup;
    setup.wall_seconds = 30;
    setup.environment = {"COLUMNS=200"};
    const auto main_help = run_captured({test::judge_program, "--help"}, setup);
    CHECK(contains(main_help.output, "  serve "));
    CHECK(contains(main_help.output, "./judge help COMMAND (batch, serve,"));
    const auto help = run_captured({test::judge_program, "help", "serve"}, setup);
    const auto dashed = run_captured({test::judge_program, "serve", "--help"}, setup);
    INFO(help.output);
    if (help.exit_code == 7) { // built without cpp-httplib: it says which package serve needs
        CHECK(contains(help.output, "cpp-httplib"));
        return;
    }
    CHECK(help.exit_code == 0);
    CHECK(help.output == dashed.output);
    CHECK(contains(help.output, "Usage: ./judge serve [OPTIONS]"));
    CHECK(contains(help.output, "  -h, --help "));
    CHECK(contains(help.output, "(default: 8765)"));
    CHECK(contains(help.output, "(default: 127.0.0.1)"));
    for (const auto &line : test::lines_of(help.output)) CHECK(display_width(line) <= 100);
}
