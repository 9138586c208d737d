#include "cli.hpp"
#include "compile.hpp"
#include "verdict.hpp"

#include <CLI/CLI.hpp>

namespace gemm {

namespace {

const char *exit_status_text =
    "Exit status: 0 every case AC; 1 worst verdict WA; 2 TLE; 3 RE; 4 CE; 5 JE (the judge or a testcase\n"
    "file is at fault, never the solution); 6 no CUDA GPU present (the solution was still compiled);\n"
    "64 bad command line.";

} // namespace

std::variant<JudgeOptions, int> parse_command_line(int argc, const char *const *argv,
                                                   const std::string &default_testcases_dir,
                                                   const std::string &default_nvcc) {
    JudgeOptions o;
    o.testcases_dir = default_testcases_dir;
    o.nvcc = default_nvcc;
    o.cache_dir = default_cache_dir();
    CLI::App app{"Judges a CUDA GEMM solution: compiles it, runs every testcase in an isolated worker, checks "
                 "the result against an FP64 reference and times it.\nA solution is a .cu file exporting\n"
                 "  extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)\n"
                 "with device pointers, row-major A (M×N), B (N×K), C (M×K).",
                 "judge"};
    app.footer(exit_status_text);
    app.add_option("solution", o.solution, "the .cu file to judge")->check(CLI::ExistingFile);
    app.add_option("--case", o.cases, "run only these cases: a name (secret/07-primes), its last part (07-primes) "
                                      "or a category (sample, secret, perf); repeatable");
    app.add_option("--testcases", o.testcases_dir, "the folder of *.case files")
        ->check(CLI::ExistingDirectory)
        ->capture_default_str();
    app.add_option("--arch", o.arch, "GPU target for nvcc, e.g. sm_90 (default: the GPU present)");
    app.add_option("--json", o.json_path, "also write every figure, the GPU, driver and clocks to this JSON file");
    app.add_option("--time-budget", o.time_budget_s, "seconds of timed calls per case (at least 5 calls)")
        ->check(CLI::Range(0.0, 60.0))
        ->capture_default_str();
    app.add_option("--baseline", o.baseline, "time cuBLAS SGEMM on the same inputs: perf (perf cases), all, none")
        ->check(CLI::IsMember({"perf", "all", "none"}))
        ->capture_default_str();
    app.add_flag("--show-output", o.show_output, "show what the solution printed (bounded tail) under each case");
    app.add_flag("--list", o.list, "list the selected testcases and exit");
    app.add_option("--nvcc", o.nvcc, "the nvcc to compile with")->capture_default_str();
    app.add_option("--cache-dir", o.cache_dir, "where compiled solutions are kept")->capture_default_str();
    try {
        app.parse(argc, argv);
        if (o.solution.empty() && !o.list) throw CLI::RequiredError("solution");
    } catch (const CLI::ParseError &e) {
        const int status = app.exit(e);
        return status == 0 ? 0 : exit_status::usage;
    }
    return o;
}

bool case_selected(const std::string &case_name, const std::string &selector) {
    if (case_name == selector) return true;
    const auto slash = case_name.find('/');
    if (slash == std::string::npos) return false;
    return case_name.substr(0, slash) == selector || case_name.substr(slash + 1) == selector;
}

} // namespace gemm
