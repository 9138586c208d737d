#include "command_line/options/cli.hpp"
#include "command_line/options/help_format.hpp"
#include "command_line/options/usage_errors.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "compile/compile.hpp"
#include "compile/compile_cache.hpp"
#include "compile/gpu_target.hpp"
#include "judging/os/process.hpp"
#include "measurement/score.hpp"
#include "measurement/significance.hpp"
#include "testcases/categories.hpp"
#include "testcases/command_line_case.hpp"
#include "verification/verdict.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <sstream>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

namespace {

const char *exit_status_text =
    "Exit status:\n"
    "  0   every case AC\n"
    "  1-4 the worst verdict: 1 WA, 2 TLE, 3 RE, 4 CE (the solution's code, or nvcc stopped by a compile "
    "limit)\n"
    "  5   JE: the judge or a testcase file is at fault, never the solution\n"
    "  6   no GPU present (the solution was still compiled)\n"
    "  7   setup error: nvcc cannot run, the cache folder is unusable or its disk full, a report cannot be "
    "written (the message says what to change)\n"
    "  64  bad command line (the message names the option or the file)\n"
    "  130/143  Ctrl-C or SIGTERM: nvcc, the referee and the runners stop with the judge, which ends by that "
    "signal\n"
    "A command's options: ./judge help COMMAND (batch, serve, rank, compare, history, leaderboard, case new, "
    "case validate, case show, case export, case import, cache info, cache clean).";

// A number option's value checked as text, before CLI11 converts it, so a word is refused
// in the option's own terms ("--time-budget: 'abc' is not a number of seconds (0 to 60)")
// rather than as a conversion or a range of six decimals.
bool is_number(const std::string &value, bool whole) {
    if (whole) {
        long long x = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), x);
        return !value.empty() && error == std::errc() && end == value.data() + value.size();
    }
    errno = 0;
    char *end = nullptr;
    const double x = std::strtod(value.c_str(), &end);
    return !value.empty() && *end == '\0' && errno != ERANGE && std::isfinite(x);
}

CLI::Validator number_in(double low, double high, const std::string &what, bool whole = false) {
    const std::string range = fmt::format("{} to {}", low, high);
    return CLI::Validator(
        [=](std::string &value) -> std::string {
            if (!is_number(value, whole))
                return "'" + escape_for_terminal(value) + "' is not " + what + " (" + range + ")";
            const double x = std::strtod(value.c_str(), nullptr);
            if (x < low || x > high) return escape_for_terminal(value) + " is not in the range " + range;
            return "";
        },
        range);
}

// A number whose range is another check's to say (the testcase parser's, for --time-limit).
CLI::Validator number(const std::string &what) {
    return CLI::Validator(
        [=](std::string &value) -> std::string {
            return is_number(value, false) ? "" : "'" + escape_for_terminal(value) + "' is not " + what;
        },
        "");
}

// One of a few words; a near miss is named.
CLI::Validator one_of(std::vector<std::string> words) {
    return CLI::Validator(
        [words](std::string &value) -> std::string {
            if (std::find(words.begin(), words.end(), value) != words.end()) return "";
            std::string text = "'" + escape_for_terminal(value) + "' is not one of ";
            for (std::size_t i = 0; i < words.size(); ++i) text += (i == 0 ? "" : ", ") + words[i];
            if (const auto near = nearest_name(value, words)) text += "; did you mean " + *near + "?";
            return text;
        },
        "");
}

CLI::Validator existing_folder() {
    return CLI::Validator(
        [](std::string &value) -> std::string {
            std::error_code ec;
            if (fs::is_directory(value, ec)) return "";
            return escape_for_terminal(value) + (fs::exists(value, ec) ? ": not a folder" : ": no such folder");
        },
        "");
}

CLI::Validator existing_file() {
    return CLI::Validator(
        [](std::string &value) -> std::string {
            std::error_code ec;
            if (fs::is_regular_file(value, ec)) return "";
            return escape_for_terminal(value) + (fs::exists(value, ec) ? ": not a regular file" : ": no such file");
        },
        "");
}

// A seed as text: a whole number; its range (0 to 2^59 - 1, negative seeds refused) is the
// testcase parser's to check, which names the option.
CLI::Validator whole_number() {
    return CLI::Validator(
        [](std::string &value) -> std::string {
            long long x = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), x);
            if (value.empty() || error != std::errc() || end != value.data() + value.size())
                return "'" + escape_for_terminal(value) + "' is not a seed (a whole number from 0 to 2^59 - 1)";
            return "";
        },
        "");
}

void add_case_command(CLI::App &app, std::optional<CaseCommandOptions> &command, std::string &shape) {
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
    create->add_option("--shape", shape, "the sizes, e.g. 17x33x5 or 17 33 5 (a problem's: in its dims)")
        ->option_text("MxNxK")
        ->required();
    create
        ->add_option("--data", c.data,
                     "uniform LOW HIGH | integers LOW HIGH | normal | mixed | sparse DENSITY (an int8 "
                     "problem's default: integers -128 127)")
        ->option_text("WORDS")
        ->capture_default_str()
        ->each([&c](const std::string &) { c.data_given = true; });
    create->add_option("--seed", c.seed, "the generator's seed, from 0 to 2^59 - 1")
        ->option_text("SEED")
        ->check(whole_number())
        ->capture_default_str();
    create->add_option("--time-limit", c.time_limit_s, "seconds per solve() call (default from the shape)")
        ->option_text("SECONDS")
        ->check(number("a number of seconds"));
    create->add_option("--comment", c.comment, "a first-line comment saying what the case is for")->option_text("TEXT");
    create->callback(use("new"));

    auto *validate = cases->add_subcommand("validate", "validate one case file, a folder, or the whole suite");
    validate->add_option("path", c.path, "a .case file or a folder (default: the suite)");
    validate->callback(use("validate"));

    auto *show = cases->add_subcommand("show", "print a case: its matrices when small, statistics when large");
    show->add_option("name", c.name, "the case, as ./judge --list names it")->required();
    show->callback(use("show"));

    auto *exporter = cases->add_subcommand("export", "write a case as a competitive-programming .in/.ans pair");
    exporter->add_option("name", c.name, "the case")->required();
    exporter->add_option("--dir", c.dir, "where to write NAME.in and NAME.ans")
        ->option_text("FOLDER")
        ->capture_default_str();
    exporter->callback(use("export"));

    auto *importer = cases->add_subcommand("import", "make an explicit case from a .in (and .ans) pair");
    for (auto *action : {create, validate, show, exporter})
        action->add_option("--problem", c.problem, "the problem whose suite it is (./judge problems lists them)")
            ->option_text("NAME");
    importer->add_option("name", c.name, "the new case's name, e.g. secret/20-imported")->required();
    importer->add_option("in", c.in_path, "the .in file: M N K, then A, then B")->required()->check(existing_file());
    importer->add_option("ans", c.ans_path, "the .ans file: C (optional)")->check(existing_file());
    importer->callback(use("import"));
}

// rank, compare, history, leaderboard: subcommands whose other options are the judge's own.
void add_competitive_commands(CLI::App &app, JudgeOptions &options) {
    auto use = [&options](const char *mode) { return [&options, mode] { options.mode = mode; }; };
    auto *rank = app.add_subcommand("rank", "judge the whole suite, then time the ranked set (perf and rank cases) "
                                            "against cuBLAS until the spread is small, and give a score");
    rank->add_option("solution", options.solution, "the .cu file to rank")->required();
    rank->add_option("--profile", options.rounds.profile_case, "also run Nsight Compute on this ranked case")
        ->option_text("CASE");
    rank->footer(std::string("Score: the geometric mean of the per-shape median times, of cuBLAS time / yours, and "
                             "of the achieved FLOP/s over the FP32 peak.\n") +
                 fp32_peak_rule +
                 "\nNoise: the score's 99% interval, a bootstrap over the rounds and calls of "
                 "both sides of every shape, as compare's.");
    auto *compare = app.add_subcommand("compare", "time two solutions interleaved on the ranked set, or compare two "
                                                  "--json reports or two history attempts (#ID): per shape an "
                                                  "interval of new/old and a Mann–Whitney U test");
    compare->add_option("old", options.solution, "the old side: a .cu, a JSON report or #ID")->required();
    compare->add_option("new", options.rounds.other, "the new side, the same kinds")->required();
    compare->footer(std::string("Per shape: new/old, the old median time over the new (above 1: new is faster), with "
                                "its ") +
                    ratio_interval_method +
                    "; p, a two-sided Mann–Whitney U test over every call's time. A shape is significant when the "
                    "interval excludes 1 and p < 0.05. Two .cu files are timed in rounds (old, new, shape by shape, "
                    "the side that goes first alternating by round; unless --time-budget is given, a round is at "
                    "most 20 calls in 0.1 s a side, since the rounds, not the calls in one, carry the noise); a "
                    "rank report keeps its rounds, a judge report "
                    "is one round. Both tests read the clock's times as measured, before either side's own "
                    "measurement of the path's cost is taken off (reports without raw times: as reported); the "
                    "figures take one cost, the median of both sides' measurements, off both.");
    auto *history = app.add_subcommand("history", "the attempts recorded so far (of one solution), with the change "
                                                  "since the previous one and since the best");
    history->add_option("solution", options.solution, "a .cu file, its name or its content hash");
    history->footer("Score: the geometric mean of cuBLAS time / yours over the cases timed against cuBLAS (the ranked "
                    "set in a rank run, the perf cases or --baseline's in a judge run; the column says which and how "
                    "many); none without such a case. A change inside the noise (a rank run's score interval, else "
                    "1%) is not significant.");
    auto *leaderboard =
        app.add_subcommand("leaderboard", "the best ranked attempt of every solution, one board per GPU model");
    for (auto *command : {rank, compare, history, leaderboard}) {
        command->fallthrough();
        command->callback(use(command->get_name().c_str()));
    }
    for (auto *command : {rank, compare, history})
        command->add_option("--plot", options.reports.plot_path, "draw the figures into this .png or .svg (matplotlib)")
            ->option_text("FILE");
    for (auto *command : {rank, compare}) {
        command
            ->add_option("--spread-target", options.rounds.spread_target,
                         "repeat until every shape's spread (IQR/median) is below this")
            ->option_text("FRACTION")
            ->check(number_in(0.0001, 1.0, "a fraction"))
            ->capture_default_str();
        command->add_option("--rank-budget", options.rounds.budget_s, "… or until this many seconds have passed")
            ->option_text("SECONDS")
            ->check(number_in(1.0, 36000.0, "a number of seconds"))
            ->capture_default_str();
    }
}

void add_cache_command(CLI::App &app, std::string &action) {
    auto *cache = app.add_subcommand("cache", "where compiled solutions are kept (--cache-dir), and emptying it");
    cache->require_subcommand(1)->fallthrough(); // --cache-dir may follow the action
    cache->add_subcommand("info", "print the cache folder, how many libraries it holds and their size")
        ->fallthrough()
        ->callback([&action] { action = "info"; });
    cache->add_subcommand("clean", "delete every compiled solution in the cache folder")
        ->fallthrough()
        ->callback([&action] { action = "clean"; });
}

// Why `path` cannot be written as a report, or nullopt: checked before any work starts.
std::optional<std::string> why_not_writable(const std::string &path) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return std::string("is a folder");
    if (fs::exists(path, ec))
        return access(path.c_str(), W_OK) == 0 ? std::nullopt : std::optional<std::string>(std::strerror(errno));
    const fs::path parent = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
    if (!fs::is_directory(parent, ec)) return "its folder " + parent.string() + " does not exist";
    if (access(parent.c_str(), W_OK | X_OK) != 0)
        return "its folder " + parent.string() + " is not writable: " + std::strerror(errno);
    return std::nullopt;
}

std::vector<std::string> split_categories(const std::string &categories) {
    std::vector<std::string> names;
    for (std::size_t start = 0; start <= categories.size();) {
        const auto comma = categories.find(',', start);
        const auto name = categories.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (!name.empty()) names.push_back(name);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return names;
}

// Options that only mean something with another: refused alone rather than ignored.
void check_dependent_options(const CLI::App &app, const JudgeOptions &options) {
    const bool generated = app.count("--shape") > 0 || options.selection.stress > 0;
    for (const char *option : {"--seed", "--data"})
        if (app.count(option) > 0 && !generated)
            throw CLI::ValidationError(option, "only applies to --shape or --stress");
}

std::string malformed_shape(const std::string &text) {
    return "--shape " + escape_for_terminal(text) + ": expected MxNxK or M N K, three whole numbers, e.g. 17x33x5";
}

// The command line's own case (--shape), or for --stress its --data and --seed, parsed
// now: a bad value is this command line's error, named by its option.
void check_generated_case(const std::string &shape_text, long long seed, JudgeOptions &options) {
    // Any count of sizes here: how many the problem takes is known once it is chosen
    // (problem_choice.cpp), which checks them; three are checked now as the default's.
    if (!shape_text.empty() && (options.selection.shape = parse_sizes(shape_text)).empty())
        throw UsageError(malformed_shape(shape_text));
    if (options.selection.shape.size() == 3)
        command_line_case({options.selection.shape[0], options.selection.shape[1], options.selection.shape[2]}, seed,
                          options.selection.data);
    else if (options.selection.stress > 0)
        command_line_case({1, 1, 1}, seed, options.selection.data);
    options.selection.seed = static_cast<std::uint64_t>(seed);
}

// A solution is read (hashed, compiled) only when it is a regular file: a FIFO would block
// the read, a device would never end.
void check_solution_file(const std::string &path) {
    if (const auto why = why_not_a_solution_file(path)) throw UsageError(escape_for_terminal(path) + ": " + *why);
}

// The same file named by two report options would be written twice, the second over the first.
void check_report_paths_differ(const JudgeOptions &options) {
    const std::vector<std::pair<std::string, std::string>> reports = {{"--json", options.reports.json_path},
                                                                      {"--junit", options.reports.junit_path},
                                                                      {"--plot", options.reports.plot_path}};
    const auto same_file = [](const std::string &a, const std::string &b) {
        std::error_code ec;
        if (fs::equivalent(a, b, ec)) return true;
        return fs::weakly_canonical(fs::absolute(a), ec) == fs::weakly_canonical(fs::absolute(b), ec);
    };
    for (std::size_t i = 0; i < reports.size(); ++i)
        for (std::size_t j = i + 1; j < reports.size(); ++j)
            if (!reports[i].second.empty() && !reports[j].second.empty() &&
                same_file(reports[i].second, reports[j].second))
                throw UsageError(reports[i].first + " and " + reports[j].first + " name the same file " +
                                 escape_for_terminal(reports[j].second) + ": conflicting options");
}

void check_paths(JudgeOptions &options) {
    const bool judged = options.mode.empty() || options.mode == "rank";
    if (judged && !options.solution.empty() && fs::path(options.solution).extension() != ".cu")
        throw UsageError(escape_for_terminal(options.solution) + ": a solution is a CUDA source file ending in .cu");
    if (judged && !options.solution.empty()) check_solution_file(options.solution);
    if (options.mode == "compare")
        for (const std::string &side : {options.solution, options.rounds.other}) {
            const auto extension = fs::path(side).extension();
            if (side.rfind('#', 0) == 0) {
                if (side.size() < 2 || side.size() > 19 || side.find_first_not_of("0123456789", 1) != std::string::npos)
                    throw UsageError(side + ": a history attempt is # and its id, e.g. #12 (./judge history lists "
                                            "them)");
                continue;
            }
            if (extension != ".cu" && extension != ".json")
                throw UsageError(escape_for_terminal(side) +
                                 ": compare takes two .cu solutions, two JSON reports or two history #IDs");
            check_solution_file(side);
        }
    if (!options.reports.plot_path.empty()) {
        const auto extension = fs::path(options.reports.plot_path).extension();
        if (extension != ".png" && extension != ".svg")
            throw UsageError("--plot " + escape_for_terminal(options.reports.plot_path) + ": expected .png or .svg");
    }
    for (const auto &[option, path] :
         {std::pair<const char *, const std::string &>{"--plot", options.reports.plot_path},
          {"--json", options.reports.json_path},
          {"--junit", options.reports.junit_path}})
        if (!path.empty())
            if (const auto why = why_not_writable(path))
                throw UsageError(std::string(option) + " " + escape_for_terminal(path) + ": " + *why);
    check_report_paths_differ(options);
    if (!options.compile.arch.empty() && !is_target_name(options.compile.arch))
        throw UsageError("--arch " + escape_for_terminal(options.compile.arch) +
                         ": expected a GPU target such as sm_90, sm_90a or sm_100f");
    for (auto &dir : options.compile.include_dirs) dir = fs::absolute(dir).lexically_normal().string();
}

// `--shape 4 5 6` as the one value "4 5 6". Were --shape to take up to three words, CLI11
// would give it the solution that follows `--shape 4x5x6` too; whole numbers right after it
// (two or three) are joined instead, and any other word stays an argument of its own.
std::vector<std::string> with_shape_sizes_joined(std::vector<std::string> args) {
    const auto is_size = [](const std::string &word) {
        const std::size_t digits = word.find_first_not_of("+-") == 1 ? 1 : 0;
        return word.size() > digits && word.find_first_not_of("0123456789", digits) == std::string::npos;
    };
    std::vector<std::string> joined;
    for (std::size_t i = 0; i < args.size(); ++i) {
        joined.push_back(args[i]);
        if (args[i] == "--") {
            joined.insert(joined.end(), args.begin() + i + 1, args.end());
            break;
        }
        std::size_t next = i + 1;
        std::string sizes;
        while (args[i] == "--shape" && next < args.size() && next <= i + 3 && is_size(args[next]))
            sizes += (sizes.empty() ? "" : " ") + args[next++];
        if (next - i - 1 < 2) continue;
        joined.push_back(sizes);
        i = next - 1;
    }
    return joined;
}

// The command `./judge help …` asks about: the words after help, less a --help among them
// (`./judge help --help` is about help itself).
std::vector<std::string> help_words(const std::vector<std::string> &args) {
    std::vector<std::string> words;
    for (auto word = args.begin() + 1; word != args.end(); ++word)
        if (*word != "--help" && *word != "-h") words.push_back(*word);
    if (words.empty() && words.size() + 1 < args.size()) words.push_back("help");
    return words;
}

// `./judge help [COMMAND…]`: the main help, or that of the command named (case new).
int print_help(const CLI::App &app, const std::vector<std::string> &words) {
    const CLI::App *command = &app;
    std::string parents = "judge";
    for (const auto &word : words) {
        const auto named = command->get_subcommands([&word](const CLI::App *sub) { return sub->get_name() == word; });
        if (named.empty()) {
            std::cerr << unknown_command(*command, word) << help_hint(*command);
            return exit_status::usage;
        }
        if (command != &app) parents += " " + command->get_name();
        command = named.front();
    }
    std::cout << escape_for_terminal(command == &app ? app.help() : command->help(parents), true) << std::flush;
    return 0;
}

} // namespace

std::vector<int> parse_sizes(const std::string &text) {
    std::string sizes = text;
    for (std::size_t at; (at = sizes.find("×")) != std::string::npos;) sizes.replace(at, std::strlen("×"), "x");
    std::replace(sizes.begin(), sizes.end(), 'X', 'x'); // 33X17X65 as it is printed in other tools
    const bool crossed = sizes.find('x') != std::string::npos;
    std::vector<int> dims;
    std::istringstream words(sizes);
    const auto next = [&](std::string &word) {
        return static_cast<bool>(crossed ? std::getline(words, word, 'x') : words >> word);
    };
    for (std::string word; next(word);) {
        int value = 0;
        const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
        if (word.empty() || error != std::errc() || end != word.data() + word.size()) return {};
        dims.push_back(value);
    }
    if (crossed && !sizes.empty() && sizes.back() == 'x') return {}; // "4x5x6x"
    return dims;
}

std::variant<JudgeOptions, int> parse_command_line(int argc, const char *const *argv,
                                                   const CommandLineDefaults &defaults) {
    JudgeOptions options;
    options.selection.testcases_dir = defaults.testcases_dir;
    options.compile.nvcc = defaults.nvcc;
    options.compile.cache_dir = default_cache_dir();
    std::string categories = fmt::format("{}", fmt::join(default_category_names(), ",")), shape, case_shape;
    std::vector<std::string> help_topic;
    long long seed = 1;
    CLI::App app{"Judges a CUDA GEMM solution: compiles it, runs every testcase in an isolated worker, checks "
                 "the result against an FP64 reference and times it.\nA solution is a .cu file exporting\n"
                 "  extern \"C\" void solve(const float *A, const float *B, float *C, int M, int N, int K)\n"
                 "with device pointers, row-major A (M×N), B (N×K), C (M×K).",
                 "judge"};
    app.formatter(wrapping_formatter(help_width())); // before the subcommands, which inherit it
    app.set_help_flag("-h,--help", "print this help and exit");
    app.set_version_flag("--version", "gemm-judge " + defaults.version, "print the version and exit");
    app.add_option("solution", options.solution, "the .cu file to judge");
    auto *case_option = app.add_option("--case", options.selection.cases,
                                       "run only these cases: a name (secret/04-primes), its last part "
                                       "(04-primes) or a category (" +
                                           fmt::format("{}", fmt::join(category_names(), ", ")) + "); repeatable")
                            ->option_text("NAME");
    auto *category_option = app.add_option("--category", categories,
                                           "the categories to run, comma-separated; huge (over 2^31 elements, "
                                           "about 40 GB of GPU memory) runs only when named")
                                ->option_text("NAMES")
                                ->capture_default_str();
    std::vector<std::string> selection_names;
    std::string selection_help = "a named selection of the cases, instead of --category:";
    for (const auto &s : run_selections()) {
        selection_help += std::string(selection_names.empty() ? " " : "; ") + s.name + " (" + s.purpose + ")";
        selection_names.push_back(s.name);
    }
    std::string selection;
    auto *selection_option = app.add_option("--selection", selection, selection_help)
                                 ->option_text("NAME")
                                 ->check(one_of(selection_names))
                                 ->excludes(category_option)
                                 ->excludes(case_option);
    app.add_option("--problem", options.selection.problem,
                   "the problem to judge (./judge problems lists them); by default the one whose entry point "
                   "the solution defines, else LeetGPU's matrix multiplication")
        ->option_text("NAME");
    auto *testcases_option =
        app.add_option("--testcases", options.selection.testcases_dir, "the folder of *.case files")
            ->option_text("FOLDER")
            ->check(existing_folder())
            ->capture_default_str();
    app.add_option("--precision", options.case_run.precision,
                   "the arithmetic judged against: fp32, or tf32/bf16 for tensor cores")
        ->option_text("NAME")
        ->check(one_of(precision_names()))
        ->capture_default_str();
    auto *shape_option = app.add_option("--shape", shape,
                                        "judge one generated case of this shape instead of the suite, e.g. 17x33x5 "
                                        "or 17 33 5")
                             ->option_text("MxNxK");
    app.add_option("--seed", seed, "the seed of --shape and --stress, from 0 to 2^59 - 1")
        ->option_text("SEED")
        ->check(whole_number())
        ->capture_default_str();
    app.add_option("--data", options.selection.data,
                   "the distribution of --shape and --stress (as in a .case file's data line; an int8 "
                   "problem's default: integers -128 127)")
        ->option_text("WORDS")
        ->capture_default_str()
        ->each([&options](const std::string &) { options.selection.data_given = true; });
    auto *stress_option = app.add_option("--stress", options.selection.stress,
                                         "judge this many random shapes (odd sizes weighted heavily); stops at "
                                         "the first failure and shrinks it")
                              ->option_text("COUNT")
                              ->check(number_in(1, 1000000, "a number of shapes", true));
    app.add_option("--stress-max", options.selection.stress_max_size, "the largest dimension --stress draws")
        ->option_text("SIZE")
        ->check(number_in(1, 8192, "a size", true))
        ->capture_default_str()
        ->needs(stress_option);
    app.add_flag("!--no-shrink", options.case_run.shrink,
                 "do not search for the smallest failing shape after a WA or RE");
    auto *sanitize_option = app.add_flag("--sanitize", options.sanitize,
                                         "rerun the small cases under compute-sanitizer (memcheck, racecheck, "
                                         "synccheck, initcheck); a clean run is required for AC");
    app.add_option("--arch", options.compile.arch,
                   "GPU target for nvcc, e.g. sm_90 (default: the GPU present, arch-specific where it has a "
                   "variant: sm_90a on a Hopper; sm_90a without a GPU)")
        ->option_text("TARGET");
    app.add_option("--include", options.compile.include_dirs,
                   "an include folder for nvcc (a header library such as CUTLASS); repeatable; a folder's "
                   "gemm-judge.conf may name more")
        ->option_text("FOLDER")
        ->check(existing_folder());
    app.add_option("--json", options.reports.json_path,
                   "also write every figure, the GPU, driver and clocks to this JSON file")
        ->option_text("FILE");
    app.add_option("--junit", options.reports.junit_path, "also write the verdicts as a JUnit XML file, for CI systems")
        ->option_text("FILE");
    app.add_option("--stream", options.reports.stream_path,
                   "also write each event as it happens, one JSON line each, to this file (- for stdout)")
        ->option_text("FILE");
    app.add_option("--time-budget", options.case_run.time_budget_s,
                   "seconds of timed calls per case (at least 5 calls); unless given, cases timed for correctness "
                   "alone (not perf, rank or against cuBLAS) get 0.1")
        ->option_text("SECONDS")
        ->check(number_in(0.0, 60.0, "a number of seconds"))
        ->capture_default_str();
    app.add_option("--baseline", options.case_run.baseline,
                   "time cuBLAS SGEMM on the same inputs: perf (perf cases), all, none")
        ->option_text("WHICH")
        ->check(one_of({"perf", "all", "none"}))
        ->capture_default_str();
    app.add_flag("--show-output", options.reports.show_output,
                 "show what the solution printed (bounded tail) under each case");
    app.add_flag("-v,--verbose", options.reports.verbose,
                 "also print how every result was verified and timed: the checks, the clock, the offset taken off, "
                 "the solution's own events, the judge's own time");
    app.add_flag("--keep-going", options.keep_going,
                 "judge every case; by default the judge stops after the third case that ends in RE or TLE");
    app.add_flag("--reveal", options.case_run.reveal,
                 "on WA also print the data of secret cases (sample cases always show theirs)");
    auto *list_option = app.add_flag("--list", options.selection.list, "list the selected testcases and exit");
    app.add_option("--nvcc", options.compile.nvcc, "the nvcc to compile with")
        ->option_text("PROGRAM")
        ->capture_default_str()
        ->check([](const std::string &p) {
            return find_program(p).empty() ? "not an executable file (nor one in PATH)" : "";
        });
    app.add_option("--cache-dir", options.compile.cache_dir, "where compiled solutions are kept (./judge cache info)")
        ->option_text("FOLDER")
        ->capture_default_str();
    app.add_option("--compile-timeout", options.compile.timeout_s,
                   "seconds nvcc may take, with every program it starts; past it the solution is CE")
        ->option_text("SECONDS")
        ->check(number_in(1.0, 3600.0, "a number of seconds"))
        ->capture_default_str();
    app.add_option("--scratch-limit", options.case_run.scratch_limit_gib,
                   "GiB the solution may write to its own folder (a tmpfs of that size when the judge is "
                   "root); past it RE")
        ->option_text("GIB")
        ->check(number_in(0.001, 1024.0, "a number of GiB"))
        ->capture_default_str();
    app.add_option("--compile-memory", options.compile.memory_gib,
                   "GiB of address space for nvcc and each program it starts (cicc, ptxas, gcc); past it CE")
        ->option_text("GIB")
        ->check(number_in(0.25, 1024.0, "a number of GiB"))
        ->capture_default_str();
    // One mode per run: an option the mode would ignore is refused, not silently dropped.
    shape_option->excludes(case_option)
        ->excludes(category_option)
        ->excludes(selection_option)
        ->excludes(testcases_option)
        ->excludes(list_option);
    stress_option->excludes(shape_option)
        ->excludes(case_option)
        ->excludes(category_option)
        ->excludes(selection_option)
        ->excludes(testcases_option)
        ->excludes(list_option)
        ->excludes(sanitize_option);
    add_case_command(app, options.case_command, case_shape);
    add_cache_command(app, options.cache_command);
    add_competitive_commands(app, options);
    // Listed here; their own options are parsed by command_line/modes/batch_mode.cpp and
    // serve/serve_options.cpp (main/judge_main.cpp sends them there, and their help).
    auto *problems = app.add_subcommand("problems", "list the problems of the matmul family, or show one's "
                                                    "statement and starter");
    problems->add_option("name", options.selection.problem, "a problem's name, e.g. tensara/matmul-3d");
    problems->callback([&options] { options.mode = "problems"; });
    app.add_subcommand("batch", "judge many solutions, one lane per GPU, into one leaderboard table and JSON");
    app.add_subcommand("serve", "a web page on this machine to write, judge and compare solutions");
    auto *help = app.add_subcommand("help", "print this help, or a command's: ./judge help case new");
    help->add_option("command", help_topic, "a command, e.g. rank or case new");
    app.add_option("--history", options.history.path,
                   "the history database (default: $GEMM_JUDGE_HISTORY, else the user's data folder); one that "
                   "cannot be read is kept as FILE.damaged-<UTC time> and a new one started, another program's "
                   "SQLite database is refused")
        ->option_text("FILE")
        ->envname("GEMM_JUDGE_HISTORY");
    app.add_flag("!--no-history", options.history.record, "do not record this run in the history");
    app.footer(exit_status_text); // after the subcommands: only the main help has it
    for (auto *command : app.get_subcommands([](const CLI::App *) { return true; })) {
        command->group("Commands");
        for (auto *action : command->get_subcommands([](const CLI::App *) { return true; })) action->group("Commands");
    }

    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args.front() == "help") return print_help(app, help_words(args));
    args = with_shape_sizes_joined(std::move(args));
    std::reverse(args.begin(), args.end()); // CLI11 takes the arguments last first
    try {
        app.parse(args);
        if (help->parsed()) return print_help(app, help_topic);
        if (options.case_command->action.empty()) options.case_command.reset();
        check_dependent_options(app, options);
        options.case_run.time_budget_given = app.get_option("--time-budget")->count() > 0;
    } catch (const CLI::Success &e) {
        return print_help_or_version(app, e);
    } catch (const CLI::ParseError &e) {
        if (help->parsed()) return print_help(app, help_topic);
        std::cerr << describe_parse_error(e, app) << std::flush;
        return exit_status::usage;
    }
    try {
        if (options.mode.empty() && !options.solution.empty())
            if (const auto text = misread_command(options.solution, app)) {
                std::cerr << wrap_to_width(*text, console_width, 2) << help_hint(app);
                return exit_status::usage;
            }
        if (options.solution.empty() && !options.selection.list && !options.case_command &&
            options.cache_command.empty() && options.mode.empty()) {
            std::cerr << "judge: no solution given: name a .cu file (./judge solutions/tiled.cu) or a command\n"
                      << help_hint(app);
            return exit_status::usage;
        }
        check_generated_case(shape, seed, options);
        if (options.case_command && !case_shape.empty() &&
            (options.case_command->shape = parse_sizes(case_shape)).empty())
            throw UsageError("case new: --shape " + escape_for_terminal(case_shape) +
                             ": expected whole numbers joined by x or spaces, e.g. 17x33x5 (a problem's: one per "
                             "dim, ./judge problems NAME)");
        check_paths(options);
    } catch (const UsageError &e) {
        // Broken at spaces: a path given in full and the name suggested for it can fill a line each.
        std::cerr << wrap_to_width("judge: " + std::string(e.what()), console_width, 2) << "\n";
        return exit_status::usage;
    }
    options.selection.categories =
        selection.empty() ? split_categories(categories) : find_run_selection(selection)->categories;
    options.version = defaults.version;
    return options;
}

} // namespace gemm
