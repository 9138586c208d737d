#include "command_line/modes/batch_mode.hpp"
#include "batch/batch_table.hpp"
#include "batch/gpu_lanes.hpp"
#include "batch/lanes.hpp"
#include "batch/result_store.hpp"
#include "batch/submission_judge.hpp"
#include "command_line/options/help_format.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "testcases/problem_catalog.hpp"
#include "verification/verdict.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;
using namespace gemm::batch;

namespace {

struct BatchOptions {
    std::vector<std::string> inputs; // folders and .cu files
    std::string gpus = "all";
    std::string results = "batch-results";
    std::string json_path;
    std::string merge_folder;
    bool rank = false;
    int compile_jobs = 0; // 0: from the CPUs
    double submission_timeout_s = 3600;
    std::vector<std::string> judge_arguments; // after --
    std::string problem;                      // --problem: every solution judged against it
};

// The submissions: each file as given, each folder's *.cu files in name order.
std::vector<std::string> submissions_of(const std::vector<std::string> &inputs) {
    std::vector<std::string> submissions;
    for (const auto &input : inputs) {
        std::error_code ec;
        if (fs::is_directory(input, ec)) {
            std::vector<std::string> found;
            for (const auto &entry : fs::directory_iterator(input, ec))
                if (entry.path().extension() == ".cu" && fs::is_regular_file(entry.path(), ec))
                    found.push_back(entry.path().string());
            if (found.empty()) throw UsageError(escape_for_terminal(input) + ": no .cu file in this folder");
            std::sort(found.begin(), found.end());
            submissions.insert(submissions.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(input, ec)) {
            submissions.push_back(input);
        } else {
            throw UsageError(escape_for_terminal(input) + ": no such file or folder");
        }
    }
    return submissions;
}

// The judge's own options, checked once as the judge would check them, so that a slip is
// one usage error rather than a JE in every row.
std::optional<int> check_judge_arguments(const BatchOptions &options, const std::string &first,
                                         const CommandLineDefaults &defaults) {
    for (const char *option : {"--json", "--junit"})
        for (const auto &argument : options.judge_arguments)
            if (argument == option || argument.rfind(std::string(option) + "=", 0) == 0)
                throw UsageError(std::string(option) + " after --: the batch writes each submission's report itself "
                                                       "(--results); --json before -- names the batch's JSON");
    std::vector<std::string> words{"judge"};
    if (options.rank) words.push_back("rank");
    words.push_back(first);
    words.insert(words.end(), options.judge_arguments.begin(), options.judge_arguments.end());
    std::vector<const char *> argv;
    for (const auto &word : words) argv.push_back(word.c_str());
    const auto parsed = parse_command_line(static_cast<int>(argv.size()), argv.data(), defaults);
    if (const int *status = std::get_if<int>(&parsed)) return *status == 0 ? exit_status::usage : *status;
    return std::nullopt;
}

std::string judge_program() {
    // The CPU tests judge with a fake that sleeps, crashes or hangs as told.
    if (const char *fake = std::getenv("GEMM_JUDGE_BATCH_JUDGE"); fake && *fake) return fake;
    std::error_code ec;
    return fs::read_symlink("/proc/self/exe", ec).string();
}

int status_of(const std::vector<BatchRow> &rows) {
    if (std::any_of(rows.begin(), rows.end(), [](const BatchRow &r) { return r.worst == Verdict::JE; }))
        return exit_status::judge_error;
    if (!rows.empty() && std::all_of(rows.begin(), rows.end(), [](const BatchRow &r) { return r.no_gpu(); }))
        return exit_status::no_gpu;
    return 0;
}

// Written whole or not at all: the tasks of a Slurm array each write theirs into one folder.
void write_text(const std::string &path, const std::string &text) {
    const std::string part = path + ".part." + std::to_string(getpid());
    {
        std::ofstream out(part, std::ios::trunc);
        out << text;
        if (!out) throw SetupError("cannot write " + part);
    }
    std::error_code ec;
    fs::rename(part, path, ec);
    if (ec) throw SetupError("cannot write " + path + ": " + ec.message());
}

int report(BatchResult &result, const std::string &json_path) {
    sort_as_leaderboard(result);
    std::ostringstream table;
    print_batch_table(table, result);
    std::cout << table.str() << std::flush;
    const std::string json = batch_json(result);
    if (!result.results_folder.empty()) {
        write_text((fs::path(result.results_folder) / "batch.json").string(), json);
        write_text((fs::path(result.results_folder) / "batch.txt").string(), table.str());
    }
    if (!json_path.empty()) write_text(json_path, json);
    return status_of(result.rows);
}

int merge(const BatchOptions &options) {
    std::vector<std::string> problems;
    BatchResult result;
    result.rows = rows_in(options.merge_folder, problems);
    result.results_folder = options.merge_folder;
    for (const auto &problem : problems)
        std::cerr << wrap_to_width("judge: batch --merge: " + escape_for_terminal(problem), console_width, 2) << "\n";
    if (result.rows.empty()) {
        std::cerr << "judge: batch --merge: no row in " << escape_for_terminal(options.merge_folder) << "\n";
        return exit_status::usage;
    }
    return report(result, options.json_path);
}

std::size_t compilers_for(int asked) {
    if (asked > 0) return static_cast<std::size_t>(asked);
    // nvcc takes a core and up to a few GB; the lanes' referees and runners want theirs.
    return std::max(1u, std::thread::hardware_concurrency() / 8);
}

int judge_batch(const BatchOptions &options, const CommandLineDefaults &defaults) {
    const std::vector<std::string> submissions = submissions_of(options.inputs);
    if (const auto status = check_judge_arguments(options, submissions.front(), defaults)) return *status;
    const std::vector<GpuLane> lanes =
        choose_lanes(options.gpus, std::getenv("CUDA_VISIBLE_DEVICES"), listed_devices());
    const ResultStore store(options.results);
    JudgeCommand command{judge_program(), options.rank, options.judge_arguments, options.submission_timeout_s};

    BatchResult result;
    result.results_folder = options.results;
    result.problem = options.problem;
    for (const auto &lane : lanes) result.gpus.push_back(lane.label);
    std::vector<std::optional<BatchRow>> rows(submissions.size());
    std::vector<std::string> keys(submissions.size());
    std::vector<std::size_t> to_judge;
    // The mode is part of what was judged: a judge run's row is no rank run's.
    std::vector<std::string> key_arguments = options.judge_arguments;
    if (options.rank) key_arguments.insert(key_arguments.begin(), "rank");
    for (std::size_t i = 0; i < submissions.size(); ++i) {
        const auto key = submission_key(submissions[i], key_arguments);
        if (!key) throw UsageError(escape_for_terminal(submissions[i]) + ": cannot be read");
        keys[i] = *key;
        if (auto row = store.settled_row(submissions[i], keys[i])) {
            row->submission = submissions[i];
            rows[i] = *row;
            ++result.judged_before;
        } else {
            to_judge.push_back(i);
        }
    }
    std::set<std::string> targets;
    for (const auto &lane : lanes)
        if (lane.target) targets.insert(*lane.target);

    std::string gpus;
    for (const auto &lane : lanes)
        if (lane.label != no_gpu_lane) gpus += (gpus.empty() ? "" : ", ") + lane.label;
    std::cerr << "judge: batch: " << to_judge.size() << " of " << submissions.size() << " submission(s) to judge"
              << (gpus.empty() ? " without a GPU (compiled only)"
                               : " on " + std::to_string(lanes.size()) + " lane(s) (GPU " + gpus + ")")
              << (result.judged_before ? ", " + std::to_string(result.judged_before) + " judged before" : "") << "\n";
    std::mutex mutex;
    std::size_t done = 0;
    const auto finished = [&](std::size_t job, BatchRow row) {
        store.save(row);
        std::lock_guard<std::mutex> lock(mutex);
        const std::string where = row.gpu == no_gpu_lane ? "" : " on GPU " + escape_for_terminal(row.gpu);
        std::cerr << wrap_to_width("[" + std::to_string(++done) + "/" + std::to_string(to_judge.size()) + "] " +
                                       escape_for_terminal(row.submission) + ": " + row.worst_text() + where + " in " +
                                       std::to_string(static_cast<int>(row.wall_s + 0.5)) + " s",
                                   100, 2)
                  << "\n";
        rows[to_judge[job]] = std::move(row);
    };
    LaneWork work;
    work.judge = [&](std::size_t job, std::size_t lane) {
        const std::size_t i = to_judge[job];
        finished(job, judge_submission(command, lanes[lane], submissions[i], keys[i], store));
    };
    if (!targets.empty())
        work.compile_ahead = [&](std::size_t job) {
            for (const auto &target : targets) compile_ahead(command, target, submissions[to_judge[job]]);
        };
    work.failed = [&](std::size_t job, std::size_t lane, const std::string &why) {
        BatchRow row;
        row.submission = submissions[to_judge[job]];
        row.key = keys[to_judge[job]];
        row.gpu = lanes[lane].label;
        row.worst = Verdict::JE;
        row.note = "the batch could not judge it: " + why;
        std::lock_guard<std::mutex> lock(mutex);
        rows[to_judge[job]] = std::move(row);
    };
    const auto start = std::chrono::steady_clock::now();
    run_lanes(to_judge.size(), lanes.size(), compilers_for(options.compile_jobs), work);
    result.wall_s = std::max(1e-3, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    for (auto &row : rows)
        if (row) result.rows.push_back(*row);
    return report(result, options.json_path);
}

} // namespace

int run_batch_command(const std::vector<std::string> &args, const CommandLineDefaults &defaults) {
    BatchOptions options;
    std::vector<std::string> batch_args = args;
    if (const auto dashes = std::find(batch_args.begin(), batch_args.end(), "--"); dashes != batch_args.end()) {
        options.judge_arguments.assign(dashes + 1, batch_args.end());
        batch_args.erase(dashes, batch_args.end());
    }
    CLI::App app{"Judges many solutions on one host, one lane per GPU: each solution's cases run on a GPU that does "
                 "nothing else meanwhile, while the next solutions compile on the CPUs. One table and one JSON, "
                 "sorted as a leaderboard, with each solution's full report beside them in the results folder; "
                 "started again, it skips what is already judged.\n"
                 "The judge's own options for every solution follow --: ./judge batch solutions -- --category sample",
                 "judge batch"};
    app.formatter(wrapping_formatter(help_width()));
    app.set_help_flag("-h,--help", "print this help and exit");
    app.add_option("submissions", options.inputs, "folders (their .cu files) and .cu files")->option_text("DIR|FILE…");
    app.add_option("--gpus", options.gpus, "the GPUs, one lane each: all, or their indices as nvidia-smi numbers them")
        ->option_text("all|0,1,…")
        ->capture_default_str();
    app.add_option("--results", options.results,
                   "the folder for each solution's report, output and row, and batch.json")
        ->option_text("FOLDER")
        ->capture_default_str();
    app.add_option("--json", options.json_path, "also write the batch's table as JSON to this file")
        ->option_text("FILE");
    app.add_option("--problem", options.problem,
                   "judge every solution against this problem (./judge problems lists them); by default each "
                   "solution's own, from its entry point")
        ->option_text("NAME");
    app.add_flag("--rank", options.rank, "rank every solution (./judge rank): a score for each that is all AC");
    app.add_option("--compile-jobs", options.compile_jobs, "solutions compiled ahead at once (default: one per 8 CPUs)")
        ->option_text("N")
        ->check(CLI::Range(1, 256));
    app.add_option("--submission-timeout", options.submission_timeout_s,
                   "seconds one solution's judge may take, compile included; past it the row is JE")
        ->option_text("SECONDS")
        ->check(CLI::Range(1.0, 86400.0))
        ->capture_default_str();
    app.add_option("--merge", options.merge_folder,
                   "judge nothing: fold the rows in this results folder (a Slurm array's) "
                   "into the table")
        ->option_text("FOLDER")
        ->check(CLI::ExistingDirectory);
    std::reverse(batch_args.begin(), batch_args.end()); // CLI11 takes the arguments last first
    try {
        app.parse(batch_args);
    } catch (const CLI::Success &e) {
        return print_help_or_version(app, e);
    } catch (const CLI::ParseError &e) {
        std::cerr << "judge batch: " << escape_for_terminal(e.what()) << "\n(./judge batch --help lists the options)\n";
        return exit_status::usage;
    }
    try {
        if (!options.merge_folder.empty()) {
            if (!options.inputs.empty()) throw UsageError("batch --merge judges nothing: name no submission with it");
            return merge(options);
        }
        if (options.inputs.empty()) throw UsageError("batch: name a folder or .cu files (./judge batch solutions)");
        if (!options.problem.empty()) {
            if (!problem_folder(defaults.testcases_dir, options.problem))
                throw UsageError("batch --problem " + unknown_problem(defaults.testcases_dir, options.problem));
            for (const auto &argument : options.judge_arguments)
                if (argument == "--problem" || argument.rfind("--problem=", 0) == 0)
                    throw UsageError("batch: --problem before and after --: name the problem once");
            // Each judge is told the problem as a judge run by hand would be: it is part of
            // the row's key, so a batch of another problem judges every solution anew.
            options.judge_arguments.insert(options.judge_arguments.begin(), {"--problem", options.problem});
        }
        return judge_batch(options, defaults);
    } catch (const UsageError &e) {
        std::cerr << wrap_to_width("judge: " + escape_for_terminal(e.what(), true), console_width, 2) << "\n";
        return exit_status::usage;
    } catch (const SetupError &e) {
        std::cerr << wrap_to_width("judge: setup: " + escape_for_terminal(e.what(), true), console_width, 2) << "\n";
        return exit_status::setup;
    }
}

} // namespace gemm
