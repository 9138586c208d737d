// ./judge: options → testcases → compile → supervisor (workers) → report.
// The modes: the suite (or one --shape), --stress, --sanitize (command_line/modes/session.hpp), and
// rank, compare, history, leaderboard (command_line/modes/rank_mode.hpp); case and cache commands.
#include "command_line/modes/batch_mode.hpp"
#include "command_line/modes/problems_mode.hpp"
#include "command_line/modes/rank_mode.hpp"
#include "command_line/modes/session.hpp"
#include "command_line/options/cli.hpp"
#include "command_line/options/problem_choice.hpp"
#include "command_line/reporters/plot_call.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "compile/cache_command.hpp"
#include "judging/os/interrupt.hpp"
#include "judging/supervisor.hpp"
#include "sandbox/identity.hpp"
#include "testcases/case_command.hpp"
#include "testcases/case_tools.hpp"
#include "testcases/problem.hpp"
#include "testcases/problem_catalog.hpp"
#include "testcases/testcase.hpp"
#ifdef GEMM_JUDGE_HAS_SERVE
#include "serve/serve.hpp"
#endif

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace {

using namespace gemm;
namespace fs = std::filesystem;

// Why --case and --category select nothing: a --case that names no testcase, with the
// nearest name that does, else the selection as a whole.
std::string nothing_selected(const JudgeOptions &options, const std::vector<TestCase> &suite) {
    std::vector<std::string> names;
    for (const auto &tc : suite) names.push_back(tc.name);
    const std::string unmatched = unmatched_case_selector(options.selection.cases, names);
    return unmatched.empty() ? "no testcase matches --case/--category (see --list)" : unmatched;
}

// --list: the good cases of the suite even when another file is bad (reported after them).
int list_cases(const JudgeOptions &options) {
    const Suite suite = load_suite_leniently(options.selection.testcases_dir);
    const auto &dim_names = suite_problem(options.selection.testcases_dir).dims;
    int listed = 0;
    for (const auto &tc : suite.cases) {
        if (!wanted(tc, options)) continue;
        std::cout << escape_for_terminal(tc.name) << "  " << case_size_text(tc, dim_names) << "\n";
        ++listed;
    }
    std::cout << std::flush;
    // Broken at spaces after the file:line that starts it, as case validate prints it.
    for (const auto &problem : suite.problems)
        std::cerr << wrap_to_width(escape_for_terminal(problem, true), console_width, 2) << "\n";
    if (const auto unrun = never_run_files(options.selection.testcases_dir, options.selection.testcases_dir);
        !unrun.empty())
        std::cerr << "judge: note: " << unrun.size()
                  << " file(s) meant as testcases never run; ./judge case validate names them\n";
    if (!suite.problems.empty()) {
        std::cerr << "judge: JE: " << suite.problems.size() << " testcase file(s) are invalid (listed above)\n";
        return exit_status::judge_error;
    }
    if (listed == 0) {
        std::cerr << wrap_to_width("judge: " + nothing_selected(options, suite.cases), console_width, 2) << "\n";
        return exit_status::usage;
    }
    return 0;
}

int judge(const JudgeOptions &options) {
    if (options.selection.list) return list_cases(options);
    std::vector<TestCase> cases;
    try {
        cases = selected_cases(options);
    } catch (const TestcaseError &e) {
        std::cerr << wrap_to_width(escape_for_terminal(e.what(), true), console_width, 2)
                  << "\njudge: JE: the testcases are invalid; nothing was judged\n";
        return exit_status::judge_error;
    }
    if (cases.empty() && options.selection.stress == 0) {
        std::cerr << wrap_to_width(
                         "judge: " +
                             nothing_selected(options, load_suite_leniently(options.selection.testcases_dir).cases),
                         console_width, 2)
                  << "\n";
        return exit_status::usage;
    }

    Reporters report = reporters_for(options);
    Session session(options, report, options.solution);
    std::unique_ptr<Supervisor> supervisor;
    if (const auto status = session.prepare(cases, supervisor)) return *status;
    report.run_started(session.context);
    const std::vector<CaseResult> results = options.selection.stress > 0 ? session.stress(*supervisor)
                                            : options.sanitize           ? session.sanitize(cases)
                                                                         : session.judge_cases(*supervisor, cases);
    const int status = session.finish(results);
    // The report is out: the prompt need not wait for three CUDA contexts to be torn down.
    supervisor->stop_without_waiting();
    return status;
}

// The suite of the checkout the judge was started from: ./judge sets GEMM_JUDGE_ROOT, since
// the path compiled in names the checkout as it was built, before a move or a copy.
std::string checkout_testcases_dir() {
    const char *root = std::getenv("GEMM_JUDGE_ROOT");
    return root && *root ? std::string(root) + "/testcases" : GEMM_JUDGE_TESTCASES_DIR;
}

// `./judge serve`: the web page (harness/serve), where the judge was built with cpp-httplib.
int serve_command(int argc, char **argv) {
#ifdef GEMM_JUDGE_HAS_SERVE
    const char *root = std::getenv("GEMM_JUDGE_ROOT");
    const std::string checkout = root && *root ? root : GEMM_JUDGE_SOURCE_ROOT;
    return serve::serve_main(argc - 1, argv + 1, fs::read_symlink("/proc/self/exe").string(), checkout,
                             checkout_testcases_dir());
#else
    (void)argc;
    (void)argv;
    std::cerr << "judge: setup: ./judge serve needs cpp-httplib: apt-get install --no-install-recommends "
                 "libcpp-httplib-dev, then ./judge builds it in\n";
    return exit_status::setup;
#endif
}

} // namespace

int main(int argc, char **argv) {
    // Nothing running as this user (a solution's process, when the judge is not root) may
    // read or write the judge's memory through ptrace or /proc/PID/mem.
    sandbox::make_undumpable();
    install_interrupt_cleanup();
    if (argc > 1 && std::strcmp(argv[1], "serve") == 0) return serve_command(argc, argv);
    if (argc > 2 && std::strcmp(argv[1], "help") == 0 && std::strcmp(argv[2], "serve") == 0) {
        const char *serve_help[] = {argv[0], "serve", "--help"};
        return serve_command(3, const_cast<char **>(serve_help));
    }
    const CommandLineDefaults defaults{checkout_testcases_dir(), GEMM_JUDGE_NVCC, GEMM_JUDGE_VERSION};
    // batch has options of its own and passes the judge's, after --, to each judge it starts.
    const std::vector<std::string> words(argv + 1, argv + argc);
    if (!words.empty() && words[0] == "batch") return run_batch_command({words.begin() + 1, words.end()}, defaults);
    if (words.size() >= 2 && words[0] == "help" && words[1] == "batch") return run_batch_command({"--help"}, defaults);
    const auto parsed = parse_command_line(argc, argv, defaults);
    if (const int *status = std::get_if<int>(&parsed)) return *status;
    JudgeOptions options = std::get<JudgeOptions>(parsed);
    try {
        if (options.mode == "problems")
            return options.selection.problem.empty() ? list_problems(defaults.testcases_dir)
                                                     : show_problem(defaults.testcases_dir, options.selection.problem);
        const bool reads_history = options.mode == "history" || options.mode == "leaderboard";
        if (!options.case_command && options.cache_command.empty() && !reads_history)
            choose_problem(options, defaults.testcases_dir);
        // The history keeps attempts at any problem, judged yet or not: the name only has to be one.
        if (reads_history && !options.selection.problem.empty() &&
            !problem_folder(defaults.testcases_dir, options.selection.problem))
            throw UsageError(unknown_problem(defaults.testcases_dir, options.selection.problem));
        if (options.case_command) {
            // A problem's cases are its folder's: the suite the command reads and writes.
            auto &c = *options.case_command;
            if (c.problem.empty()) c.problem = options.selection.problem;
            if (!c.problem.empty()) {
                const auto folder = problem_folder(defaults.testcases_dir, c.problem);
                if (!folder)
                    throw UsageError("case " + c.action + " --problem " +
                                     unknown_problem(defaults.testcases_dir, c.problem));
                if (c.action == "import" && c.problem != default_problem().name)
                    throw UsageError("case import makes cases of the default problem (M N K, A, B): "
                                     "use case new --problem for " +
                                     c.problem);
                options.selection.testcases_dir = *folder;
            }
            return run_case_command(c, options.selection.testcases_dir);
        }
        if (!options.cache_command.empty()) return run_cache_command(options.cache_command, options.compile.cache_dir);
        if (!options.reports.plot_path.empty())
            if (const int status = ensure_matplotlib()) return status;
        if (options.mode == "rank") return rank(options);
        if (options.mode == "compare") return compare(options);
        if (options.mode == "history") return show_history(options);
        if (options.mode == "leaderboard") return show_leaderboard(options);
        return judge(options);
    } catch (const UsageError &e) {
        std::cerr << wrap_to_width("judge: " + escape_for_terminal(e.what(), true), console_width, 2) << "\n";
        return exit_status::usage;
    } catch (const ProblemError &e) {
        // A problem's descriptor is the suite's, as a testcase file is: its fault is the judge's setup.
        std::cerr << wrap_to_width("judge: JE: " + std::string(e.what()), console_width, 2) << "\n";
        return exit_status::judge_error;
    } catch (const SetupError &e) {
        std::cerr << wrap_to_width("judge: setup: " + escape_for_terminal(e.what(), true), console_width, 2) << "\n";
        return exit_status::setup;
    } catch (const std::exception &e) {
        std::cerr << wrap_to_width("judge: JE: internal error: " + escape_for_terminal(e.what(), true), console_width,
                                   2)
                  << "\n";
        return exit_status::judge_error;
    }
}
