// ./judge: options → testcases → compile → supervisor (workers) → report.
#include "check.hpp"
#include "cli.hpp"
#include "compile.hpp"
#include "process.hpp"
#include "protocol.hpp"
#include "report.hpp"
#include "supervisor.hpp"
#include "testcase.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace {

using namespace gemm;
namespace fs = std::filesystem;

std::string sibling_program(const char *name) {
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    return (self.parent_path() / name).string();
}

// Loads the suite and checks every explicit expected C against its FP64 reference,
// so a wrong testcase is the judge's error (JE), never the solution's WA.
std::vector<TestCase> load_valid_suite(const JudgeOptions &o) {
    auto suite = load_suite(o.testcases_dir);
    std::string errors;
    for (const auto &tc : suite) {
        if (tc.expected_C.empty()) continue;
        if (auto why = expected_output_mismatch(tc, reference_on_cpu(tc.A, tc.B, tc.M, tc.N, tc.K)))
            errors += *why + "\n";
    }
    if (!errors.empty()) throw TestcaseError(errors.substr(0, errors.size() - 1));
    std::vector<TestCase> selected;
    for (auto &tc : suite) {
        bool wanted = o.cases.empty();
        for (const auto &s : o.cases) wanted = wanted || case_selected(tc.name, s);
        if (wanted) selected.push_back(std::move(tc));
    }
    return selected;
}

DeviceInfo probe(const std::string &worker) {
    const auto run = run_captured({worker, "--probe"});
    try {
        return nlohmann::json::parse(run.output.substr(run.output.rfind('{'))).get<DeviceInfo>();
    } catch (const std::exception &) {
        DeviceInfo d;
        d.error = "the device probe failed: " + run.output.substr(0, 300);
        return d;
    }
}

std::vector<CaseResult> same_verdict_for_all(const std::vector<TestCase> &cases, Verdict v, const std::string &why) {
    std::vector<CaseResult> results;
    for (const auto &tc : cases) {
        CaseResult r;
        r.name = tc.name;
        r.M = tc.M;
        r.N = tc.N;
        r.K = tc.K;
        r.verdict = v;
        r.detail = why;
        results.push_back(r);
    }
    return results;
}

class Progress {
  public:
    Progress() : enabled_(isatty(STDERR_FILENO)) {}
    void show(std::size_t index, std::size_t total, const std::string &name) const {
        if (enabled_) std::cerr << "\r\033[K[" << index + 1 << "/" << total << "] running " << name << std::flush;
    }
    void clear() const {
        if (enabled_) std::cerr << "\r\033[K" << std::flush;
    }

  private:
    bool enabled_;
};

int finish(const RunContext &run, const std::vector<CaseResult> &results, const std::string &json_path) {
    const int status = results.empty() ? exit_status::all_accepted : exit_status_for(worst_verdict(results));
    if (!json_path.empty()) {
        std::ofstream out(json_path);
        out << report_json(run, results, status).dump(2) << "\n";
        if (!out) std::cerr << "judge: cannot write " << json_path << "\n";
    }
    return status;
}

int judge(const JudgeOptions &o) {
    std::vector<TestCase> cases;
    try {
        cases = load_valid_suite(o);
    } catch (const TestcaseError &e) {
        std::cerr << e.what() << "\njudge: JE: the testcase suite is invalid; nothing was judged\n";
        return exit_status::judge_error;
    }
    if (cases.empty()) {
        std::cerr << "judge: no testcase matches --case (see --list)\n";
        return exit_status::usage;
    }
    if (o.list) {
        for (const auto &tc : cases)
            std::cout << tc.name << "  " << tc.M << "×" << tc.N << "×" << tc.K << "\n";
        return 0;
    }

    const std::string worker = sibling_program("gemm-worker");
    RunContext run;
    run.solution = o.solution;
    run.time_budget_s = o.time_budget_s;
    run.device = probe(worker);
    run.arch = !o.arch.empty() ? o.arch : (run.device.present ? run.device.arch() : "");
    CompileOptions compile{o.nvcc, run.arch, o.cache_dir, {}};
    run.compile = compile_solution(o.solution, compile);
    if (!run.compile.ok) {
        std::cout << fs::path(o.solution).filename().string() << "  CE: nvcc failed\n" << run.compile.diagnostics;
        if (run.compile.diagnostics.back() != '\n') std::cout << "\n";
        return finish(run, same_verdict_for_all(cases, Verdict::CE, run.compile.diagnostics), o.json_path);
    }

    SupervisorOptions supervision;
    supervision.worker_argv = {worker, run.compile.library, "--time-budget=" + std::to_string(o.time_budget_s),
                               "--baseline=" + o.baseline};
    Supervisor supervisor(supervision);
    const WorkerStart start = supervisor.start();
    if (start.ok && !start.solve_error.empty()) {
        std::cout << fs::path(o.solution).filename().string() << "  CE: " << start.solve_error << "\n";
        return finish(run, same_verdict_for_all(cases, Verdict::CE, start.solve_error), o.json_path);
    }
    if (!run.device.present) {
        std::cout << fs::path(o.solution).filename().string() << "  compiled for "
                  << (run.arch.empty() ? "nvcc's default target" : run.arch) << "; solve() found\n"
                  << "judge: no CUDA GPU is present (" << run.device.error << "); nothing was run\n";
        finish(run, {}, o.json_path);
        return exit_status::no_gpu;
    }

    std::cout << format_header(run) << format_column_titles() << std::flush;
    std::vector<CaseResult> results;
    const Progress progress;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        progress.show(i, cases.size(), cases[i].name);
        results.push_back(supervisor.run_case(cases[i]));
        progress.clear();
        std::cout << format_row(results.back(), o.show_output) << std::flush;
    }
    const int status = finish(run, results, o.json_path);
    std::cout << format_summary(results, status);
    return status;
}

} // namespace

int main(int argc, char **argv) {
    const auto parsed = parse_command_line(argc, argv, GEMM_JUDGE_TESTCASES_DIR, GEMM_JUDGE_NVCC);
    if (const int *status = std::get_if<int>(&parsed)) return *status;
    try {
        return judge(std::get<JudgeOptions>(parsed));
    } catch (const std::exception &e) {
        std::cerr << "judge: JE: internal error: " << e.what() << "\n";
        return exit_status::judge_error;
    }
}
