// ./judge end to end, as a user runs it: the seed kernels over the default suite and
// every known-bad solution against the verdict it must get. Cases that need a GPU
// print "[skipped: no GPU]" without one, which CTest counts as skipped.
#include "channel/protocol.hpp"
#include "judge/process.hpp"

#include <cstdlib>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const std::string source_dir = GEMM_SOURCE_DIR;
const std::string judge_program = std::string(GEMM_BIN_DIR) + "/gemm-judge";
const std::string known_bad_dir = source_dir + "/harness/tests/known-bad";

fs::path artifacts_dir() {
    const char *env = std::getenv("GEMM_TEST_ARTIFACTS");
    fs::path dir = env && *env ? fs::path(env) : fs::path(GEMM_BIN_DIR).parent_path() / "test-artifacts";
    fs::create_directories(dir);
    return dir;
}

bool gpu_present() {
    static const bool present = [] {
        const auto run = gemm::run_captured({std::string(GEMM_BIN_DIR) + "/gemm-referee", "--probe"});
        try {
            return json::parse(run.output.substr(run.output.rfind('{'))).at("present").get<bool>();
        } catch (const std::exception &) {
            return false;
        }
    }();
    return present;
}

struct JudgeRun {
    int exit_code = -1;
    std::string output;
    json report; // null when the judge wrote none
};

JudgeRun run_judge(const std::string &solution, std::vector<std::string> extra, const std::string &label) {
    const auto json_path = artifacts_dir() / (label + ".json");
    fs::remove(json_path);
    std::vector<std::string> argv = {judge_program, solution, "--json", json_path.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto run = gemm::run_captured(argv);
    JudgeRun result{run.exit_code, run.output, nullptr};
    std::ofstream(artifacts_dir() / (label + ".txt")) << run.output;
    if (std::ifstream in(json_path); in) result.report = json::parse(in);
    return result;
}

#define REQUIRE_GPU()                                                                                                  \
    if (!gpu_present()) {                                                                                              \
        std::printf("[skipped: no GPU]\n");                                                                            \
        return;                                                                                                        \
    }

struct Expectation {
    std::string verdict, detail, cases, flags;
};

Expectation read_directives(const fs::path &file) {
    Expectation e;
    std::ifstream in(file);
    const std::regex directive(R"(^//\s*(expect|cases|detail|flags):\s*(.*?)\s*$)");
    for (std::string line; std::getline(in, line) && line.rfind("//", 0) == 0;) {
        std::smatch m;
        if (!std::regex_match(line, m, directive)) continue;
        if (m[1] == "expect") e.verdict = m[2];
        if (m[1] == "cases") e.cases = m[2];
        if (m[1] == "detail") e.detail = m[2];
        if (m[1] == "flags") e.flags = m[2];
    }
    return e;
}

std::vector<std::string> judge_arguments(const Expectation &e) {
    std::vector<std::string> args = {"--time-budget", "0.02", "--baseline", "none"};
    std::istringstream cases(e.cases);
    for (std::string c; cases >> c;) args.insert(args.end(), {"--case", c});
    std::istringstream flags(e.flags);
    for (std::string f; flags >> f;) args.push_back(f);
    return args;
}

std::vector<fs::path> known_bad_files() {
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(known_bad_dir))
        if (entry.path().extension() == ".cu") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The worst verdict, the details of every case and the timing flags of one judged known-bad.
struct Outcome {
    std::string verdict = "none";
    std::string text;
};

Outcome outcome_of(const JudgeRun &run) {
    Outcome o;
    o.text = run.output;
    if (run.report.is_null() || !run.report.contains("summary")) return o;
    o.verdict = run.report["summary"]["worst"];
    for (const auto &c : run.report["cases"]) o.text += "\n" + c["detail"].get<std::string>();
    return o;
}

} // namespace

TEST_CASE("a compile error is CE with nvcc's message, with or without a GPU") {
    const auto run = run_judge(known_bad_dir + "/compile-error.cu", {}, "known-bad-compile-error");
    CHECK(run.exit_code == 4);
    CHECK(run.output.find("compile-error.cu(7): error") != std::string::npos);
    REQUIRE(run.report.is_object());
    CHECK(run.report["summary"]["worst"] == "CE");
}

TEST_CASE("a solve() without extern \"C\" is CE with a sentence saying so, with or without a GPU") {
    const auto run = run_judge(known_bad_dir + "/missing-extern-c.cu", {}, "known-bad-missing-extern-c");
    CHECK(run.exit_code == 4);
    CHECK(run.output.find("no extern \"C\" solve symbol") != std::string::npos);
}

TEST_CASE("without a GPU the judge compiles the solution, says so and exits 6") {
    if (gpu_present()) {
        std::printf("[skipped: a GPU is present]\n");
        return;
    }
    const auto run = run_judge(source_dir + "/solutions/tiled.cu", {}, "no-gpu-tiled");
    CHECK(run.exit_code == 6);
    CHECK(run.output.find("judge: no GPU: ") != std::string::npos);
    REQUIRE(run.report.is_object());
    CHECK(run.report["summary"]["exit_status"] == 6);
    CHECK(run.report["summary"]["worst"].is_null());
    CHECK(run.report["summary"]["no_gpu"].get<std::string>().find("nvidia-smi") != std::string::npos);
}

TEST_CASE("a bad command line is a usage error") {
    const auto run = gemm::run_captured({judge_program, source_dir + "/solutions/tiled.cu", "--baseline", "sometimes"});
    CHECK(run.exit_code == 64);
    CHECK(run.output.find("--baseline") != std::string::npos);
}

TEST_CASE("an invalid testcase suite is refused as JE before anything runs") {
    const auto suite = fs::temp_directory_path() / ("gemm-bad-suite-" + std::to_string(::getpid()));
    fs::create_directories(suite / "secret");
    std::ofstream(suite / "secret" / "bad.case") << "shape 4 4\ndata uniform -1 1\nseed 1\n";
    const auto run = gemm::run_captured(
        {judge_program, source_dir + std::string("/solutions/tiled.cu"), "--testcases", suite.string()});
    CHECK(run.exit_code == 5);
    CHECK(run.output.find("bad.case:1: expected `shape M N K`") != std::string::npos);
    fs::remove_all(suite);
}

TEST_CASE("the seed kernels are AC on every default case") {
    REQUIRE_GPU();
    for (const std::string name : {"naive", "tiled"}) {
        CAPTURE(name);
        const auto run =
            run_judge(source_dir + "/solutions/" + name + ".cu", {"--time-budget", "0.05"}, "solution-" + name);
        CHECK(run.exit_code == 0);
        REQUIRE(run.report.is_object());
        for (const auto &c : run.report["cases"]) {
            CAPTURE(c["name"].get<std::string>());
            CAPTURE(c["detail"].get<std::string>());
            CHECK(c["verdict"] == "AC");
        }
    }
}

TEST_CASE("every known-bad solution gets the verdict it expects") {
    REQUIRE_GPU();
    std::ofstream table(artifacts_dir() / "known-bad-table.txt");
    table << "solution                        expected  actual  detail-ok  result\n";
    for (const auto &file : known_bad_files()) {
        const Expectation e = read_directives(file);
        const std::string label = "known-bad-" + file.stem().string();
        const auto run = run_judge(file.string(), judge_arguments(e), label);
        const Outcome o = outcome_of(run);
        const bool detail_ok = e.detail.empty() || o.text.find(e.detail) != std::string::npos;
        const bool ok = o.verdict == e.verdict && detail_ok;
        char row[256];
        std::snprintf(row, sizeof row, "%-32s%-10s%-8s%-11s%s\n", file.filename().c_str(), e.verdict.c_str(),
                      o.verdict.c_str(), detail_ok ? "yes" : "NO", ok ? "ok" : "MISMATCH");
        table << row << std::flush;
        CAPTURE(file.filename().string());
        CAPTURE(o.text);
        CHECK(o.verdict == e.verdict);
        CHECK(detail_ok);
    }
}
