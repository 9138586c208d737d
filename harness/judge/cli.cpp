#include "judge/cli.hpp"
#include "core/verdict.hpp"
#include "judge/compile.hpp"

#include <CLI/CLI.hpp>

namespace gemm {

namespace {

const char *exit_status_text =
    "Exit status: 0 every case AC; 1 worst verdict WA; 2 TLE; 3 RE; 4 CE; 5 JE (the judge or a testcase\n"
    "file is at fault, never the solution); 6 no CUDA GPU present (the solution was still compiled);\n"
    "64 bad command line.\n"
    "Testcases: ./judge case new|validate|show|export|import --help";

void add_case_command(CLI::App &app, std::optional<CaseCommandOptions> &command) {
    auto *cases = app.add_subcommand("case", "add, validate, show, export or import testcases");
    cases->require_subcommand(1);
    auto use = [&command](const char *action) {
        return [&command, action] {
            if (!command) command.emplace();
            command->action = action;
        };
    };
    command.emplace(); // options bind to this; reset below when no case action ran
    CaseCommandOptions &c = *command;

    auto *create = cases->add_subcommand("new", "create a generated case file");
    create->add_option("name", c.name, "e.g. secret/19-my-case (category folder, then a name)")->required();
    create->add_option("--shape", c.shape, "M N K")->expected(3)->required();
    create->add_option("--data", c.data, "uniform LOW HIGH | integers LOW HIGH | normal | mixed | sparse DENSITY")
        ->capture_default_str();
    create->add_option("--seed", c.seed, "the generator's seed")->capture_default_str();
    create->add_option("--time-limit", c.time_limit_s, "seconds per solve() call (default from the shape)");
    create->add_option("--comment", c.comment, "a first-line comment saying what the case is for");
    create->callback(use("new"));

    auto *validate = cases->add_subcommand("validate", "validate one case file, a folder, or the whole suite");
    validate->add_option("path", c.path, "a .case file or a folder (default: the suite)");
    validate->callback(use("validate"));

    auto *show = cases->add_subcommand("show", "print a case: its matrices when small, statistics when large");
    show->add_option("name", c.name, "the case, as ./judge --list names it")->required();
    show->callback(use("show"));

    auto *exporter = cases->add_subcommand("export", "write a case as a competitive-programming .in/.ans pair");
    exporter->add_option("name", c.name, "the case")->required();
    exporter->add_option("--dir", c.dir, "where to write NAME.in and NAME.ans")->capture_default_str();
    exporter->callback(use("export"));

    auto *importer = cases->add_subcommand("import", "make an explicit case from a .in (and .ans) pair");
    importer->add_option("name", c.name, "the new case's name, e.g. secret/20-imported")->required();
    importer->add_option("in", c.in_path, "the .in file: M N K, then A, then B")->required()->check(CLI::ExistingFile);
    importer->add_option("ans", c.ans_path, "the .ans file: C (optional)")->check(CLI::ExistingFile);
    importer->callback(use("import"));
}

} // namespace

std::vector<int> parse_shape(const std::string &text) {
    std::vector<int> dims;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find_first_of("x×", start);
        const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
        try {
            std::size_t used = 0;
            const long value = std::stol(part, &used);
            if (used != part.size() || value < 1 || value > 2147483647L) return {};
            dims.push_back(static_cast<int>(value));
        } catch (const std::exception &) {
            return {};
        }
        if (end == std::string::npos) break;
        start = text.compare(end, 2, "×") == 0 ? end + 2 : end + 1; // "×" is two bytes in UTF-8
    }
    return dims.size() == 3 ? dims : std::vector<int>{};
}

std::variant<JudgeOptions, int> parse_command_line(int argc, const char *const *argv,
                                                   const std::string &default_testcases_dir,
                                                   const std::string &default_nvcc) {
    JudgeOptions o;
    o.testcases_dir = default_testcases_dir;
    o.nvcc = default_nvcc;
    o.cache_dir = default_cache_dir();
    std::string categories = "sample,secret,perf", shape;
    CLI::App app{"Judges a CUDA GEMM solution: compiles it, runs every testcase in an isolated worker, checks "
                 "the result against an FP64 reference and times it.\nA solution is a .cu file exporting\n"
                 "  extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)\n"
                 "with device pointers, row-major A (M×N), B (N×K), C (M×K).",
                 "judge"};
    app.footer(exit_status_text);
    app.add_option("solution", o.solution, "the .cu file to judge")->check(CLI::ExistingFile);
    app.add_option("--case", o.cases,
                   "run only these cases: a name (secret/07-primes), its last part (07-primes) "
                   "or a category (sample, secret, perf); repeatable");
    app.add_option("--category", categories,
                   "the categories to run, comma-separated; huge (over 2^31 elements, "
                   "about 40 GB of GPU memory) runs only when named")
        ->capture_default_str();
    app.add_option("--testcases", o.testcases_dir, "the folder of *.case files")
        ->check(CLI::ExistingDirectory)
        ->capture_default_str();
    app.add_option("--precision", o.precision, "the arithmetic judged against: fp32, or tf32/bf16 for tensor cores")
        ->check(CLI::IsMember({"fp32", "tf32", "bf16"}))
        ->capture_default_str();
    app.add_option("--shape", shape, "judge one generated case of this shape instead of the suite, e.g. 17x33x5");
    app.add_option("--seed", o.seed, "the seed of --shape and --stress")->capture_default_str();
    app.add_option("--data", o.data, "the distribution of --shape and --stress (as in a .case file's data line)")
        ->capture_default_str();
    app.add_option("--stress", o.stress,
                   "judge this many random shapes (odd sizes weighted heavily); stops at the "
                   "first failure and shrinks it")
        ->check(CLI::Range(1, 1000000));
    app.add_option("--stress-max", o.stress_max_size, "the largest dimension --stress draws")
        ->check(CLI::Range(1, 8192))
        ->capture_default_str();
    app.add_flag("!--no-shrink", o.shrink, "do not search for the smallest failing shape after a WA or RE");
    app.add_flag("--sanitize", o.sanitize,
                 "rerun the small cases under compute-sanitizer (memcheck, racecheck, "
                 "synccheck, initcheck); a clean run is required for AC");
    app.add_option("--arch", o.arch, "GPU target for nvcc, e.g. sm_90 (default: the GPU present)");
    app.add_option("--json", o.json_path, "also write every figure, the GPU, driver and clocks to this JSON file");
    app.add_option("--time-budget", o.time_budget_s, "seconds of timed calls per case (at least 5 calls)")
        ->check(CLI::Range(0.0, 60.0))
        ->capture_default_str();
    app.add_option("--baseline", o.baseline, "time cuBLAS SGEMM on the same inputs: perf (perf cases), all, none")
        ->check(CLI::IsMember({"perf", "all", "none"}))
        ->capture_default_str();
    app.add_flag("--show-output", o.show_output, "show what the solution printed (bounded tail) under each case");
    app.add_flag("--reveal", o.reveal, "on WA also print the data of secret cases (sample cases always show theirs)");
    app.add_flag("--list", o.list, "list the selected testcases and exit");
    app.add_option("--nvcc", o.nvcc, "the nvcc to compile with")->capture_default_str();
    app.add_option("--cache-dir", o.cache_dir, "where compiled solutions are kept")->capture_default_str();
    add_case_command(app, o.case_command);
    try {
        app.parse(argc, argv);
        if (o.case_command->action.empty()) o.case_command.reset();
        if (!shape.empty() && (o.shape = parse_shape(shape)).empty())
            throw CLI::ValidationError("--shape", "expected MxNxK with positive sizes, e.g. 17x33x5, got " + shape);
        if (o.solution.empty() && !o.list && !o.case_command) throw CLI::RequiredError("solution");
    } catch (const CLI::ParseError &e) {
        const int status = app.exit(e);
        return status == 0 ? 0 : exit_status::usage;
    }
    for (std::size_t start = 0; start <= categories.size();) {
        const auto comma = categories.find(',', start);
        const auto name = categories.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!name.empty()) o.categories.push_back(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return o;
}

} // namespace gemm
