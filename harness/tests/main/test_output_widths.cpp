// Every line every command prints fits in the console's 100 columns: gemm-judge run as a
// user runs it, in each command and mode that needs no GPU — the help of each command, the
// refusals of bad options, files and shapes, history and leaderboard over a history with
// long names, the cache, case new/validate/show, compare, rank and a judge run in their
// no-GPU form, a compile error with long compiler lines. scripts/gpu-check measures the
// outputs that need the GPU (a full run, --verbose, WA details, rank, compare, the events'
// cross-check) the same way.
#include <doctest/doctest.h>

#include "command_line/history/history.hpp"
#include "common/terminal_text.hpp"
#include "judging/os/child_process.hpp"
#include "judging/os/process.hpp"
#include "test_support.hpp"

#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace gemm;
using gemm::test::contains;
using gemm::test::judge_program;
using gemm::test::lines_of;
using gemm::test::skip_without_nvcc;
using gemm::test::TempFolder;

namespace {

// Where a judge runs: on the machine's GPU if it has one, or as if it had none.
enum class Gpu { as_found, hidden };

// A judge whose history, cache and configuration are the folder's, never the user's. An
// empty CUDA_VISIBLE_DEVICES shows CUDA no GPU: the judge then says so in seconds, on a GPU
// machine too, instead of judging for minutes.
std::vector<std::string> judge_environment(const TempFolder &folder) {
    return {"HOME=" + folder.at("home"), "XDG_DATA_HOME=" + folder.at("data"), "XDG_CACHE_HOME=" + folder.at("cache"),
            "XDG_CONFIG_HOME=" + folder.at("config"), "NO_COLOR=1"};
}

CapturedRun judge_in(const TempFolder &folder, std::vector<std::string> args, double wall_seconds, Gpu gpu) {
    args.insert(args.begin(), judge_program);
    ChildSetup setup;
    setup.wall_seconds = wall_seconds;
    setup.environment = judge_environment(folder);
    if (gpu == Gpu::hidden) setup.environment.push_back("CUDA_VISIBLE_DEVICES=");
    return run_captured(args, setup);
}

// What `serve --port 0` prints before it waits for requests, read up to the end of its line
// "… Ctrl-C stops the server …" (at most 30 s), then the server is stopped: the test does not
// wait out a fixed time.
std::string serve_greeting(const TempFolder &folder) {
    int out[2];
    REQUIRE(pipe2(out, O_CLOEXEC) == 0);
    ChildSpec spec;
    spec.argv = {judge_program, "serve", "--port", "0"};
    spec.output_fd = out[1];
    spec.environment = environment_with(judge_environment(folder));
    ChildProcess serve;
    const bool started = serve.start(spec);
    close(out[1]);
    std::string output;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    const auto greeted = [&] {
        const auto last = output.find("Ctrl-C stops the server");
        return last != std::string::npos && output.find('\n', last) != std::string::npos;
    };
    while (started && !greeted() && std::chrono::steady_clock::now() < deadline) {
        pollfd ready{out[0], POLLIN, 0};
        if (poll(&ready, 1, 100) <= 0) continue;
        char buffer[4096];
        const ssize_t n = read(out[0], buffer, sizeof buffer);
        if (n <= 0) break;
        output.append(buffer, static_cast<std::size_t>(n));
    }
    serve.stop();
    close(out[0]);
    CHECK(started);
    return output;
}

std::string command_text(const std::vector<std::string> &args) {
    std::string text = "gemm-judge";
    for (const auto &arg : args) text += " " + arg;
    return text;
}

// Runs each command and checks every line of what it printed, stdout and stderr alike.
void check_widths(const TempFolder &folder, const std::vector<std::vector<std::string>> &commands,
                  double wall_seconds = 0, Gpu gpu = Gpu::as_found) {
    for (const auto &args : commands) {
        const CapturedRun run = judge_in(folder, args, wall_seconds, gpu);
        const std::string command = command_text(args);
        CAPTURE(command);
        CHECK(run.started);
        CHECK_MESSAGE(!run.output.empty(), command);
        for (const std::string &line : lines_of(run.output)) {
            CAPTURE(line);
            CHECK(display_width(line) <= console_width);
        }
    }
}

// Attempts with the longest names a table cuts, changes inside and outside the noise.
std::string history_with_long_names(const TempFolder &folder) {
    const std::string path = folder.at("fixture.sqlite");
    History history = History::open(path);
    for (const double ratio : {0.160, 0.1605, 0.320, 1.25}) {
        Attempt a;
        a.mode = "rank";
        a.solution_name = "an-extraordinarily-long-solution-file-name-for-the-tables.cu";
        a.solution_path = "/very/long/folder/names/that/go/on/and/on/" + a.solution_name;
        a.gpu_name = "NVIDIA GeForce RTX 4090 Laptop GPU with a long name";
        a.worst_verdict = ratio > 1 ? "TLE" : "AC";
        a.geomean_ms = 3.0 / ratio;
        a.geomean_ratio_to_cublas = ratio;
        a.percent_of_peak = 100 * ratio / 2;
        a.noise_floor = 0.004;
        a.cublas_cases = 12;
        a.report_json = "{}";
        history.record(a);
    }
    return path;
}

const char *const long_compile_error =
    R"(#error this is a long message from the preprocessor which nvcc prints on one line well past the hundredth column of any terminal
extern "C" void solve(const float *A, const float *B, float *C, int M, int N, int K) {}
)";

} // namespace

TEST_CASE("every line of the help of every command fits in 100 columns") {
    TempFolder folder;
    std::vector<std::vector<std::string>> commands = {{"--help"}, {"help"}};
    for (const char *command : {"case", "cache", "rank", "compare", "history", "leaderboard", "batch", "help"}) {
        commands.push_back({"help", command});
        commands.push_back({command, "--help"});
    }
    check_widths(folder, commands);
}

// A temporary folder's path makes the refusal of a missing file long: broken at spaces.
TEST_CASE("refusals of bad options, files, shapes and cases fit in 100 columns") {
    TempFolder folder;
    const std::string solution = folder.write("sol.cu", "extern \"C\" void solve() {}\n");
    const std::string long_path = folder.at("missing-solution-with-a-long-name.cu");
    check_widths(folder, {{"--frobnicate"},
                          {"nosuch.cu"},
                          {long_path},
                          {solution, "--shape", "3x3"},
                          {solution, "--shape", "0x3x3"},
                          {solution, "--case", "no-such-case-anywhere-in-the-suite"},
                          {solution, "--time-budget", "-1"},
                          {solution, "--precision", "fp7"},
                          {solution, "--testcases", long_path},
                          {"compare", "one.json"},
                          {"compare", long_path, long_path},
                          {"rank"},
                          {"cache", "frobnicate"},
                          {"case", "frobnicate"}});
}

TEST_CASE("history and leaderboard fit in 100 columns: empty, and with long names") {
    TempFolder folder;
    const std::string fixture = history_with_long_names(folder);
    check_widths(folder,
                 {{"history"},
                  {"leaderboard"},
                  {"history", "--history", fixture},
                  {"history", "an-extraordinarily-long-solution-file-name-for-the-tables.cu", "--history", fixture},
                  {"leaderboard", "--history", fixture},
                  {"history", "--history", folder.at("missing/history.sqlite")}});
}

TEST_CASE("a history damaged past its header is named, set aside and started anew in lines of 100 columns") {
    TempFolder folder;
    const std::string path = folder.write("history.sqlite", std::string(4096, '#'));
    check_widths(folder, {{"history", "--history", path}});
}

TEST_CASE("cache info and clean fit in 100 columns") {
    TempFolder folder;
    const std::string cache = folder.at("a-cache-folder");
    check_widths(
        folder, {{"cache", "info", "--cache-dir", cache}, {"cache", "clean", "--cache-dir", cache}, {"cache", "info"}});
}

TEST_CASE("case new, validate and show fit in 100 columns, refusals included") {
    TempFolder folder;
    const std::string suite = folder.at("suite-" + std::string("s"));
    folder.write("suite-" + std::string("s") + "/sample/01-good.case", "shape 1 1 1\ndata explicit\nA\n2\nB\n3\n");
    folder.write("suite-" + std::string("s") + "/sample/02-wrong-c-with-a-long-name.case",
                 "shape 1 1 1\ndata explicit\nA\n2\nB\n3\nC\n7\n");
    check_widths(folder,
                 {{"--testcases", suite, "case", "new", "secret/30-x", "--shape", "3x3x3", "--data", "gaussian"},
                  {"--testcases", suite, "case", "new", "secret/30-x", "--shape", "3x3x3", "--data", "explicit"},
                  {"--testcases", suite, "case", "new", "secret/30-x", "--shape", "3x3x3", "--data", "uniform 1"},
                  {"--testcases", suite, "case", "new", "secret/31-y", "--shape", "3x3x3", "--data", "uniform -1 1",
                   "--seed", "7"},
                  {"--testcases", suite, "case", "new", "nocategory", "--shape", "3x3x3"},
                  {"--testcases", suite, "case", "validate"},
                  {"--testcases", suite, "case", "show", "01-good"},
                  {"--testcases", suite, "case", "show", "02-wrong-c-with-a-long-name"},
                  {"--testcases", suite, "case", "show", "no-such-case"},
                  {"case", "validate"},
                  {"--list"}});
}

TEST_CASE("--list of a suite with a bad file fits in 100 columns") {
    TempFolder folder;
    folder.write("suite/sample/02-wrong-c-with-a-long-name.case", "shape 1 1 1\ndata explicit\nA\n2\nB\n3\nC\n7\n");
    check_widths(folder, {{"--testcases", folder.at("suite"), "--list"}});
}

TEST_CASE("compare of two reports fits in 100 columns") {
    TempFolder folder;
    const std::string compare = std::string(GEMM_SOURCE_DIR) + "/harness/tests/plot-fixtures/compare.json";
    const std::string rank = std::string(GEMM_SOURCE_DIR) + "/harness/tests/plot-fixtures/rank.json";
    check_widths(folder, {{"compare", rank, rank}, {"compare", compare, compare}});
}

TEST_CASE("a judge run, rank and compare without a GPU, and a compile error's long lines, fit in 100 columns") {
    if (skip_without_nvcc()) return;
    TempFolder folder;
    const std::string ladder = std::string(GEMM_SOURCE_DIR) + "/solutions/";
    const std::string cache = gemm::test::shared_compile_cache(); // the checkout's rungs: compiled once
    const std::string broken = folder.write("broken-with-a-rather-long-file-name.cu", long_compile_error);
    check_widths(folder,
                 {{ladder + "02-tiled.cu", "--cache-dir", cache, "--no-history"},
                  {ladder + "02-tiled.cu", "--cache-dir", cache, "--no-history", "--verbose"},
                  {"rank", ladder + "02-tiled.cu", "--cache-dir", cache, "--no-history"},
                  {"compare", ladder + "01-naive.cu", ladder + "02-tiled.cu", "--cache-dir", cache},
                  {broken, "--cache-dir", cache, "--no-history"}},
                 0, Gpu::hidden);
}

TEST_CASE("serve's help and URL fit in 100 columns") {
    TempFolder folder;
    check_widths(folder, {{"help", "serve"}, {"serve", "--help"}});
    const std::string greeting = serve_greeting(folder);
    CAPTURE(greeting);
    CHECK(contains(greeting, "/?token="));
    CHECK(contains(greeting, "Ctrl-C stops the server"));
    for (const std::string &line : lines_of(greeting)) {
        CAPTURE(line);
        CHECK(display_width(line) <= console_width);
    }
}

// Without a GPU batch compiles each submission and says once why nothing ran. The results'
// folder's path is long but fits a line of its own: a path longer than a line stays whole.
TEST_CASE("batch's notes without a GPU and its reports' folder fit in 100 columns") {
    if (skip_without_nvcc()) return;
    TempFolder folder;
    const std::string ladder = std::string(GEMM_SOURCE_DIR) + "/solutions/";
    check_widths(
        folder,
        {{"batch", ladder + "01-naive.cu", ladder + "02-tiled.cu", "--results",
          folder.at("results-" + std::string(40, 'r')), "--", "--cache-dir", gemm::test::shared_compile_cache()}},
        120, Gpu::hidden);
}
