// ./judge end to end, as a user runs it: the seed kernels over the default suite and
// every known-bad solution against the verdict it must get. Cases that need a GPU
// print "[skipped: no GPU]" without one, which CTest counts as skipped.
#include "channel/protocol.hpp"
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <doctest/doctest.h>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <sys/wait.h>
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
    json report;             // null when the judge wrote none
    std::string report_text; // the JSON report as written, "" when none
};

std::string file_text(const fs::path &path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

JudgeRun run_judge(const std::string &solution, std::vector<std::string> extra, const std::string &label) {
    const auto json_path = artifacts_dir() / (label + ".json");
    fs::remove(json_path);
    std::vector<std::string> argv = {judge_program, solution, "--json", json_path.string()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    const auto run = gemm::run_captured(argv);
    JudgeRun result{run.exit_code, run.output, nullptr, ""};
    std::ofstream(artifacts_dir() / (label + ".txt")) << run.output;
    if (fs::exists(json_path)) {
        result.report_text = file_text(json_path);
        result.report = json::parse(result.report_text);
    }
    return result;
}

#define REQUIRE_GPU()                                                                                                  \
    if (!gpu_present()) {                                                                                              \
        std::printf("[skipped: no GPU]\n");                                                                            \
        return;                                                                                                        \
    }

// A known-bad file's directives (harness/tests/known-bad/README.md): the only place they
// are read.
struct Expectation {
    std::string verdict, detail, cases, flags;
    bool decoys = false;       // plant the decoys before the run, check them after
    double min_time_ratio = 0; // 0: no timing requirement
    fs::path yardstick;        // the solution the time is compared with, when min_time_ratio > 0
};

Expectation read_directives(const fs::path &file) {
    Expectation e;
    std::string compare_with;
    std::ifstream in(file);
    const std::regex directive(R"(^//\s*(expect|cases|detail|flags|decoys|min-time-ratio|compare-with):\s*(.*?)\s*$)");
    for (std::string line; std::getline(in, line) && line.rfind("//", 0) == 0;) {
        std::smatch m;
        if (!std::regex_match(line, m, directive)) continue;
        if (m[1] == "expect") e.verdict = m[2];
        if (m[1] == "cases") e.cases = m[2];
        if (m[1] == "detail") e.detail = m[2];
        if (m[1] == "flags") e.flags = m[2];
        if (m[1] == "decoys") e.decoys = m[2] == "yes";
        if (m[1] == "min-time-ratio") e.min_time_ratio = std::stod(m[2]);
        if (m[1] == "compare-with") compare_with = m[2];
    }
    if (e.min_time_ratio > 0)
        e.yardstick = compare_with.empty() ? fs::path(source_dir) / "solutions" / "01-naive.cu"
                                           : file.parent_path() / compare_with;
    return e;
}

// Files a solution must not reach, planted where the sandbox, not file permissions, is
// all that stands between them and a solution running as nobody: a world-writable folder
// of world-writable files, which only a solution would try to change.
namespace decoys {

const fs::path folder = "/tmp/gemm-judge-decoys";
const std::string marker = "DECOY-SECRET-7f3a";

std::map<std::string, std::string> contents() {
    std::string history = "gemm-judge decoy history: not an SQLite file, 4096 known bytes\n";
    for (std::size_t i = history.size(); i < 4096; ++i) history.push_back(static_cast<char>((i * 131 + 7) % 251));
    return {{"history.sqlite", history},
            {"secret.case", "# " + marker +
                                ": a decoy secret case, never to appear in the judge's output\n"
                                "shape 3 5 7\ndata uniform -1 1\nseed 7\n"},
            {"testcase.case", "# a decoy testcase\nshape 5 7 3\ndata uniform -1 1\nseed 5\n"}};
}

void plant() {
    fs::remove_all(folder);
    fs::create_directory(folder);
    fs::permissions(folder, fs::perms::all);
    for (const auto &[name, text] : contents()) {
        std::ofstream(folder / name, std::ios::binary) << text;
        fs::permissions(folder / name, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                           fs::perms::group_write | fs::perms::others_read | fs::perms::others_write);
    }
}

// "" when the folder holds exactly the planted files, byte for byte, and the secret's
// marker is in neither the judge's output nor its report; else what is wrong. Removes
// the folder.
std::string check_and_remove(const JudgeRun &run) {
    std::string wrong;
    const auto planted = contents();
    std::error_code ec;
    for (const auto &entry : fs::directory_iterator(folder, ec)) {
        const std::string name = entry.path().filename().string();
        if (!planted.count(name)) wrong += name + " was created; ";
    }
    if (ec) wrong += "the folder cannot be listed (" + ec.message() + "); ";
    for (const auto &[name, text] : planted) {
        if (!fs::exists(folder / name))
            wrong += name + " was removed; ";
        else if (file_text(folder / name) != text)
            wrong += name + " was changed; ";
    }
    if (run.output.find(marker) != std::string::npos) wrong += "the secret's marker is in the judge's output; ";
    if (run.report_text.find(marker) != std::string::npos) wrong += "the secret's marker is in the JSON report; ";
    fs::remove_all(folder, ec);
    return wrong;
}

} // namespace decoys

std::vector<std::string> judge_arguments(const Expectation &e) {
    std::vector<std::string> args = {"--time-budget", "0.02", "--baseline", "none"};
    std::istringstream cases(e.cases);
    for (std::string c; cases >> c;) args.insert(args.end(), {"--case", c});
    std::istringstream flags(e.flags);
    for (std::string f; flags >> f;) args.push_back(f);
    // The judge keeps no history of these runs: a history it could not read it would move
    // aside (command_line/history/history.cpp), and the decoy must be changed by nobody.
    if (e.decoys) args.push_back("--no-history");
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

// The smallest ratio, over the cases of `run`, of its median to the yardstick's median on
// the same case; nullopt when a case lacks a time on either side.
std::optional<double> smallest_time_ratio(const JudgeRun &run, const JudgeRun &yardstick) {
    if (run.report.is_null() || yardstick.report.is_null() || run.report["cases"].empty()) return std::nullopt;
    std::optional<double> smallest;
    for (const auto &c : run.report["cases"]) {
        const json *other = nullptr;
        for (const auto &y : yardstick.report["cases"])
            if (y["name"] == c["name"]) other = &y;
        if (!other || c["timing"].is_null() || (*other)["timing"].is_null()) return std::nullopt;
        const double ratio = c["timing"]["median_ms"].get<double>() / (*other)["timing"]["median_ms"].get<double>();
        smallest = smallest ? std::min(*smallest, ratio) : ratio;
    }
    return smallest;
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
    CHECK(gemm::test::unwrapped(run.output).find("missing-extern-c.cu defines solve() without extern \"C\"") !=
          std::string::npos);
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

TEST_CASE("the seed kernels, by the seed's names, are AC on every default case") {
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

// A short run's calibration calls are made in the solution's process too (referee/case_referee.cpp):
// what they cost there beyond the baseline's is kept beside the offset and widens the
// tolerance the clock is held to against the solution's own events; it is never in a time.
TEST_CASE(
    "a short run's stand-ins in the solution's process are reported beside the offset and widen only the cross-check") {
    REQUIRE_GPU();
    const auto run =
        run_judge(source_dir + "/solutions/09-h200-tuned.cu",
                  {"--case", "rank/02-cube-2048", "--no-history", "--verbose"}, "stand-ins-in-solution-process");
    CHECK(run.exit_code == 0);
    REQUIRE(run.report.is_object());
    REQUIRE(run.report["cases"].size() == 1);
    const json &c = run.report["cases"][0];
    CAPTURE(c.dump());
    CHECK(c["verdict"] == "AC");
    const json &e = c["timing"]["empty_call"];
    CHECK(e["interleaved"] == true);
    REQUIRE(e["solution_process_excess_ms"].is_number());
    const double excess = e["solution_process_excess_ms"].get<double>();
    CHECK(std::fabs(excess) < 0.05); // a few µs on the H200: the same path, another process
    CHECK(e["solution_process_samples"].get<int>() >= 6);
    const json &x = c["own_events_cross_check"];
    CHECK(x["tolerance_ms"].get<double>() >= e["spread_ms"].get<double>() + std::fabs(excess) - 1e-12);
    // The time is the clock's: the raw median less the baseline's offset, whatever the solution's process paid.
    const auto &raw = c["timing"]["raw_samples_ms"], &kept = c["timing"]["samples_ms"];
    REQUIRE(raw.size() == kept.size());
    for (std::size_t i = 0; i < raw.size(); ++i)
        CHECK(kept[i].get<double>() == doctest::Approx(raw[i].get<double>() - e["median_ms"].get<double>()));
    CHECK(run.output.find("made in its own process too") != std::string::npos);
}

// Two judges at once would each time the other's work, and the empty call measured after
// a short case's calls then read the other judge's kernels as work the solution left
// running (an honest 1×1×1 case was RE so). They take turns (judging/os/gpu_turn.hpp).
TEST_CASE("two judges started together on one GPU take turns: both AC, and the one that waited says so") {
    REQUIRE_GPU();
    const fs::path dir = artifacts_dir();
    const std::string script =
        "side() { \"$0\" \"$1\" --case perf/01-cube-4096 --case sample/01-one-by-one --no-history --verbose "
        "--json \"$2/turns-$3.json\" >\"$2/turns-$3.txt\" 2>&1; }; "
        "side \"$1\" \"$2\" a & a=$!; side \"$1\" \"$2\" b & b=$!; wait $a; sa=$?; wait $b; sb=$?; exit $((sa | sb))";
    const auto run =
        gemm::run_captured({"sh", "-c", script, judge_program, source_dir + "/solutions/02-tiled.cu", dir.string()});
    CHECK(run.exit_code == 0);
    int waited = 0;
    for (const std::string side : {"a", "b"}) {
        const std::string output = file_text(dir / ("turns-" + side + ".txt"));
        CAPTURE(output);
        const json report = json::parse(file_text(dir / ("turns-" + side + ".json")));
        for (const auto &c : report["cases"]) CHECK(c["verdict"] == "AC");
        const double wait_s = report["judge_seconds"]["waited_for_gpu"].get<double>();
        if (output.find("judge: waiting for the GPU: another judge (PID ") != std::string::npos) {
            ++waited;
            CHECK(wait_s > 0.5); // the other judge's whole run
            CHECK(output.find("waiting for another judge's turn on the GPU") != std::string::npos);
        }
    }
    CHECK(waited == 1);
}

namespace {

// Starts `argv` with its output into `output`; its PID.
pid_t start_with_output(const std::vector<std::string> &argv, const fs::path &output) {
    const pid_t pid = fork();
    if (pid == 0) {
        std::vector<const char *> args{"sh", "-c", "exec \"$0\" \"$@\" >\"$OUTPUT_FILE\" 2>&1"};
        for (const auto &a : argv) args.push_back(a.c_str());
        args.push_back(nullptr);
        setenv("OUTPUT_FILE", output.c_str(), 1);
        execv("/bin/sh", const_cast<char *const *>(args.data()));
        _exit(127);
    }
    return pid;
}

} // namespace

// Another process's kernels on the GPU cost the judge's empty call after a case's calls
// what work left running by the solution would. A process that is neither the judge's nor
// in the solution's process group is named, and the case is the judge's JE, not the RE of
// an honest solution (measurement/gpu_sharing.hpp).
TEST_CASE("another program's kernels on the GPU during a case are the judge's JE naming it, never the solution's RE") {
    REQUIRE_GPU();
    const fs::path dir = artifacts_dir() / "gpu-sharing";
    fs::create_directories(dir);
    std::ofstream(dir / "gpu-spinner.cu") << R"(#include <cstdio>
#include <cuda_runtime.h>
__global__ void spin(long long cycles) {
    const long long start = clock64();
    while (clock64() - start < cycles) {}
}
int main() {
    for (;;) { spin<<<132, 32>>>(1000000000LL); cudaDeviceSynchronize(); }
}
)";
    const auto built =
        gemm::run_captured({GEMM_NVCC, "-O2", "-o", (dir / "gpu-spinner").string(), (dir / "gpu-spinner.cu").string()});
    REQUIRE_MESSAGE(built.exit_code == 0, built.output);
    const pid_t judge =
        start_with_output({judge_program, source_dir + "/solutions/02-tiled.cu", "--shape", "2048x2048x2048",
                           "--time-budget", "4", "--no-history", "--json", (dir / "report.json").string()},
                          dir / "judge.txt");
    // The solution's runner starts once the referee has measured the empty call (the second
    // gemm-runner): then the other program starts, while the case's calls run.
    for (int i = 0; i < 3000 && gemm::test::children_named(judge, "gemm-runner") < 2; ++i) usleep(10 * 1000);
    const pid_t spinner = start_with_output({(dir / "gpu-spinner").string()}, dir / "spinner.txt");
    int status = 0;
    waitpid(judge, &status, 0);
    kill(spinner, SIGKILL);
    waitpid(spinner, nullptr, 0);
    const std::string output = file_text(dir / "judge.txt");
    CAPTURE(output);
    const json report = json::parse(file_text(dir / "report.json"));
    REQUIRE(report["cases"].size() == 1);
    const auto &c = report["cases"][0];
    CHECK(c["verdict"] == "JE");
    CHECK(c["detail"].get<std::string>().find("the GPU was shared with PID " + std::to_string(spinner) +
                                              " (gpu-spinner)") != std::string::npos);
}

TEST_CASE("every known-bad solution gets the verdict it expects") {
    REQUIRE_GPU();
    std::ofstream table(artifacts_dir() / "known-bad-table.txt");
    // The first column as wide as the longest name, persisting-l2-window-yardstick.cu, and a space.
    table << std::left << std::setw(36) << "solution"
          << "expected  actual  detail-ok  time-ratio        decoys-unchanged  result\n";
    for (const auto &file : known_bad_files()) {
        const Expectation e = read_directives(file);
        const std::string label = "known-bad-" + file.stem().string();
        if (e.decoys) decoys::plant();
        const auto run = run_judge(file.string(), judge_arguments(e), label);
        const std::string decoy_damage = e.decoys ? decoys::check_and_remove(run) : "";
        const Outcome o = outcome_of(run);
        const bool detail_ok = e.detail.empty() || o.text.find(e.detail) != std::string::npos;
        std::optional<double> ratio;
        std::string time_column = "-";
        if (e.min_time_ratio > 0) {
            Expectation same_run = e;
            same_run.decoys = false;
            ratio = smallest_time_ratio(
                run, run_judge(e.yardstick.string(), judge_arguments(same_run), label + "-yardstick"));
            char text[64];
            if (ratio)
                std::snprintf(text, sizeof text, "%.2f (>= %.2f)", *ratio, e.min_time_ratio);
            else
                std::snprintf(text, sizeof text, "none (>= %.2f)", e.min_time_ratio);
            time_column = text;
        }
        const bool time_ok = e.min_time_ratio <= 0 || (ratio && *ratio >= e.min_time_ratio);
        const bool ok = o.verdict == e.verdict && detail_ok && time_ok && decoy_damage.empty();
        char row[512];
        std::snprintf(row, sizeof row, "%-36s%-10s%-8s%-11s%-18s%-18s%s\n", file.filename().c_str(), e.verdict.c_str(),
                      o.verdict.c_str(), detail_ok ? "yes" : "NO", time_column.c_str(),
                      !e.decoys              ? "-"
                      : decoy_damage.empty() ? "yes"
                                             : "no",
                      ok ? "ok" : "MISMATCH");
        table << row << std::flush;
        CAPTURE(file.filename().string());
        CAPTURE(o.text);
        CAPTURE(decoy_damage);
        CHECK(o.verdict == e.verdict);
        CHECK(detail_ok);
        CHECK(time_ok);
        CHECK(decoy_damage.empty());
    }
}

// No shipped problem is BF16: the fixture harness/tests/support/bf16-problem (α, β, C read) is
// added to a copy of testcases/, named in GEMM_JUDGE_ROOT. A kernel that sums in FP32 and rounds
// once is AC on every case; one that keeps its running sum in BF16 is WA where N is long.
TEST_CASE("a BF16 problem is judged: FP32 sums rounded once are AC, a sum kept in BF16 is WA") {
    REQUIRE_GPU();
    const fs::path root = fs::temp_directory_path() / ("gemm-bf16-root-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root / "testcases" / "example");
    fs::copy(source_dir + "/testcases", root / "testcases", fs::copy_options::recursive);
    fs::copy(source_dir + "/harness/tests/support/bf16-problem", root / "testcases" / "example" / "bf16-gemm",
             fs::copy_options::recursive);
    const auto kernel = [](const std::string &sum_type, const std::string &add) {
        return "#include <cuda_bf16.h>\n"
               "__global__ void k(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C, int M, int N,\n"
               "                  int K, float alpha, float beta) {\n"
               "    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;\n"
               "    if (r >= M || c >= K) return;\n"
               "    " +
               sum_type +
               " s = 0.0f;\n"
               "    for (int i = 0; i < N; ++i) {\n"
               "        float p = __bfloat162float(A[(size_t)r * N + i]) * __bfloat162float(B[(size_t)i * K + c]);\n"
               "        " +
               add +
               "\n"
               "    }\n"
               "    float v = alpha * float(s) + beta * __bfloat162float(C[(size_t)r * K + c]);\n"
               "    C[(size_t)r * K + c] = __float2bfloat16(v);\n"
               "}\n"
               "extern \"C\" void solve(const __nv_bfloat16 *A, const __nv_bfloat16 *B, __nv_bfloat16 *C, int M,\n"
               "                      int N, int K, float alpha, float beta) {\n"
               "    // LeetGPU's names: A is M×K, B is K×N; the kernel's inner dimension is its N.\n"
               "    dim3 block(16, 16), grid((N + 15) / 16, (M + 15) / 16);\n"
               "    k<<<grid, block>>>(A, B, C, M, K, N, alpha, beta);\n"
               "}\n";
    };
    std::ofstream(root / "fp32-sum.cu") << kernel("float", "s += p;");
    std::ofstream(root / "bf16-sum.cu") << kernel("__nv_bfloat16", "s = __float2bfloat16(float(s) + p);");
    gemm::ChildSetup setup;
    setup.environment = {"GEMM_JUDGE_ROOT=" + root.string()};
    const auto judge = [&](const std::string &file) {
        const auto json_path = artifacts_dir() / ("bf16-" + file + ".json");
        fs::remove(json_path);
        const auto run =
            gemm::run_captured({judge_program, "--problem", "example/bf16-gemm", (root / (file + ".cu")).string(),
                                "--no-history", "--json", json_path.string()},
                               setup);
        std::ofstream(artifacts_dir() / ("bf16-" + file + ".txt")) << run.output;
        CAPTURE(run.output);
        REQUIRE(fs::exists(json_path));
        return std::make_pair(run.exit_code, json::parse(file_text(json_path)));
    };
    const auto [fp32_exit, fp32] = judge("fp32-sum");
    CHECK(fp32_exit == 0);
    REQUIRE(fp32["cases"].size() == 3);
    for (const auto &c : fp32["cases"]) {
        CAPTURE(c.dump());
        CHECK(c["verdict"] == "AC");
    }
    const auto [bf16_exit, bf16] = judge("bf16-sum");
    CHECK(bf16_exit == 1);
    for (const auto &c : bf16["cases"]) {
        CAPTURE(c.dump());
        if (c["name"] == "secret/02-long-inner") CHECK(c["verdict"] == "WA");
    }
    fs::remove_all(root);
}
