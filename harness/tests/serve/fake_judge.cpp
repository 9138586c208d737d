// A fake gemm-judge, for ./judge serve's tests on a machine without a GPU or nvcc:
// the judge's own session, reporters (--stream among them) and history, judging through
// the fake referee and runner (fake_referee.cpp, fake_runner.cpp) instead of the
// real ones. The "solution" is a text file as the fake runner reads it: its first word
// says what it does (ok, wrong, crash-in-call, print-markup, …); "compile-error" makes it
// fail to compile, with a message in nvcc's form that quotes its third line; "no-gpu" makes
// it end as the judge does on a machine without a GPU (compiled, nothing judged, exit 6).
// The problem is chosen as the judge chooses it (--problem, else the entry point read from the
// source), below $GEMM_JUDGE_ROOT/testcases, and one the judge cannot judge yet is refused as
// the judge refuses it (exit 64); its command line is printed first, for a test to read what
// the server asked for. The cases are the fake's own, whatever the problem.
// Usage: fake_judge SOLUTION [--selection quick] [--stream FILE] [--json FILE] [--history FILE]
//                   [--scratch-limit-mib MIB] [--problem NAME]
//        fake_judge --fixture-history FILE   (writes a small history to read back)
#include "command_line/history/history.hpp"
#include "command_line/modes/session.hpp"
#include "command_line/options/problem_choice.hpp"
#include "command_line/reporters/history_reporter.hpp"
#include "command_line/reporters/stream_reporter.hpp"
#include "common/errors.hpp"
#include "judging/os/gpu_absence.hpp"
#include "testcases/problem.hpp"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

namespace {

using namespace gemm;
namespace fs = std::filesystem;

std::string argument(int argc, char **argv, const char *option) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::strcmp(argv[i], option) == 0) return argv[i + 1];
    return "";
}

TestCase small_case(const std::string &name, int M, int N, int K) {
    TestCase tc;
    tc.name = name;
    tc.category = name.substr(0, name.find('/'));
    tc.M = M;
    tc.N = N;
    tc.K = K;
    tc.generator.seed = static_cast<std::uint64_t>(M * 131 + N * 17 + K);
    tc.time_limit_s = 2;
    return tc;
}

// Two samples, one of them with markup in its name, and two secret cases.
std::vector<TestCase> fake_suite(bool samples_only) {
    std::vector<TestCase> cases{small_case("sample/01-small", 8, 8, 8),
                                small_case("sample/02-<script>alert('case')</script>", 5, 9, 3)};
    if (!samples_only)
        for (const auto &tc : {small_case("secret/03-odd", 17, 33, 5), small_case("secret/04-tall", 31, 7, 19)})
            cases.push_back(tc);
    return cases;
}

std::vector<std::string> lines_of(const std::string &path) {
    std::ifstream file(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    return lines;
}

// What nvcc says about an undefined name on line 3, the line quoted as it is.
std::string compiler_message(const std::string &path) {
    const auto lines = lines_of(path);
    const std::string quoted = lines.size() >= 3 ? lines[2] : "";
    return fs::path(path).filename().string() + "(3): error: identifier \"" + quoted +
           "\" is undefined\n\n1 error detected in the compilation of \"" + fs::path(path).filename().string() + "\".";
}

// A history with two solutions ranked on one GPU, one of them named with markup.
int write_fixture_history(const std::string &path) {
    History history = History::open(path);
    const auto attempt = [](const std::string &name, const char *mode, double ratio, const char *time) {
        Attempt a;
        a.time_utc = time;
        a.mode = mode;
        a.solution_name = name;
        a.solution_path = "/fixture/" + name;
        a.solution_hash = name;
        a.gpu_name = "Fake GPU";
        a.worst_verdict = "AC";
        a.geomean_ms = 1.0 / ratio;
        a.geomean_ratio_to_cublas = ratio;
        a.cublas_cases = 1;
        CaseRecord c;
        c.name = "rank/01-cube";
        c.verdict = "AC";
        c.median_ms = 1.0 / ratio;
        c.cublas_median_ms = 1.0;
        c.samples_ms = {1.0 / ratio, 1.01 / ratio, 0.99 / ratio, 1.02 / ratio, 0.98 / ratio};
        a.cases = {c};
        // What compare reads: the report's cases with every timed call.
        a.report_json =
            nlohmann::json{
                {"cases",
                 {{{"name", c.name}, {"M", 256}, {"N", 256}, {"K", 256}, {"timing", {{"samples_ms", c.samples_ms}}}}}}}
                .dump();
        return a;
    };
    history.record(attempt("tiled.cu", "rank", 0.16, "2025-06-01T10:00:00Z"));
    history.record(attempt("tiled.cu", "rank", 0.18, "2025-06-01T11:00:00Z"));
    history.record(attempt("<script>alert('history')</script>.cu", "rank", 0.5, "2025-06-01T12:00:00Z"));
    return 0;
}

// The problem judged, as the judge's main() chooses it, refusing a name no problem has or a
// problem not judged yet with the judge's own message and exit status.
std::optional<int> choose_fake_problem(JudgeOptions &options) {
    const char *root = std::getenv("GEMM_JUDGE_ROOT");
    if (!root || !*root) return std::nullopt;
    options.selection.testcases_dir = std::string(root) + "/testcases";
    try {
        choose_problem(options, options.selection.testcases_dir);
    } catch (const UsageError &e) {
        std::cerr << "judge: " << e.what() << "\n";
        return exit_status::usage;
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char **argv) {
    if (argc == 3 && std::strcmp(argv[1], "--fixture-history") == 0) return write_fixture_history(argv[2]);
    if (argc < 2) return 64;
    std::cout << "fake_judge called with:";
    for (int i = 1; i < argc; ++i) std::cout << " " << argv[i];
    std::cout << std::endl;
    const std::string bin = fs::read_symlink("/proc/self/exe").parent_path().string();
    JudgeOptions options;
    options.solution = argv[1];
    options.selection.problem = argument(argc, argv, "--problem");
    if (const auto refused = choose_fake_problem(options)) return *refused;
    options.reports.stream_path = argument(argc, argv, "--stream");
    options.reports.json_path = argument(argc, argv, "--json");
    options.history.record = !argument(argc, argv, "--history").empty();
    options.history.path = argument(argc, argv, "--history");
    options.version = "fake";
    Reporters reporters = reporters_for(options);
    Session session(options, reporters, options.solution);
    const ProblemDescriptor &problem =
        options.selection.testcases_dir.empty() ? default_problem() : suite_problem(options.selection.testcases_dir);
    session.context.problem = problem.name;
    session.context.default_problem = problem.is_default;
    session.context.arch = "fake";
    session.context.device.present = true;
    session.context.device.name = "Fake GPU";
    session.context.device.memory_bytes = 1LL << 34;
    const auto lines = lines_of(options.solution);
    if (!lines.empty() && lines[0].rfind("compile-error", 0) == 0) {
        reporters.compile_failed(session.context, "nvcc failed\n" + compiler_message(options.solution));
        reporters.run_finished(session.context, {}, exit_status::compile_error);
        return exit_status::compile_error;
    }
    if (!lines.empty() && lines[0].rfind("no-gpu", 0) == 0) {
        // As the judge without a GPU: compiled, nothing judged, said once, exit 6.
        const MissingGpu why{"no NVIDIA driver is loaded (there is no /proc/driver/nvidia/version)",
                             "Run the judge where an NVIDIA GPU and its driver are installed."};
        reporters.no_gpu({why.sentence(), fs::path(options.solution).filename().string(), "fake", true, ""});
        reporters.run_finished(session.context, {}, exit_status::no_gpu);
        tell_missing_gpu(why);
        return exit_status::no_gpu;
    }
    const auto cases = fake_suite(argument(argc, argv, "--selection") == "quick");
    for (const auto &tc : cases) session.context.planned.push_back({tc.name, tc.M, tc.N, tc.K});
    SupervisorOptions s;
    s.referee = bin + "/fake_referee";
    s.runner = bin + "/fake_runner";
    s.library = options.solution;
    s.judge_phase_limit_s = 5.0;
    s.startup_limit_s = 10.0;
    if (const std::string mib = argument(argc, argv, "--scratch-limit-mib"); !mib.empty())
        s.scratch_limit_bytes = std::stoull(mib) << 20;
    Supervisor supervisor(s);
    reporters.run_started(session.context);
    return session.finish(session.judge_cases(supervisor, cases));
}
