#include "command_line/modes/session.hpp"
#include "channel/entry_plan.hpp"
#include "command_line/options/folder_settings.hpp"
#include "command_line/reporters/history_reporter.hpp"
#include "command_line/reporters/plot_call.hpp"
#include "command_line/reporters/stream_reporter.hpp"
#include "common/terminal_text.hpp"
#include "compile/compile.hpp"
#include "compile/gpu_target.hpp"
#include "judging/case_policy.hpp"
#include "judging/os/gpu_absence.hpp"
#include "judging/os/process.hpp"
#include "judging/sanitizer.hpp"
#include "judging/stress.hpp"
#include "testcases/case_tools.hpp"
#include "testcases/command_line_case.hpp"
#include "testcases/problem.hpp"
#include "verification/case_verdict.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace gemm {

namespace fs = std::filesystem;

namespace {

std::string sibling_program(const char *name) {
    std::error_code ec;
    const auto self = fs::read_symlink("/proc/self/exe", ec);
    return (self.parent_path() / name).string();
}

// The shortest decimal that reads back as the same double: "-1", "0.3".
std::string shortest_text(double value) {
    char text[32];
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value) break;
    }
    return text;
}

// A generated case of the default problem (a shrunk shape, a --stress shape), validated
// by the same parser as a file.
TestCase generated_case(const Shape &shape, std::uint64_t seed, const std::string &data) {
    return command_line_case(shape, static_cast<long long>(seed), data);
}

// --include folders, then those of the gemm-judge.conf beside `solution` (each side of a
// compare has its own folder), then the judge's own solve.h (LeetGPU's starter form), last
// so that a solve.h of the solution's wins.
std::vector<std::string> include_dirs(const std::vector<std::string> &given, const std::string &solution) {
    std::vector<std::string> dirs = given;
    const FolderSettings settings = folder_settings(solution);
    dirs.insert(dirs.end(), settings.include_dirs.begin(), settings.include_dirs.end());
    dirs.push_back(starter_include_dir());
    return dirs;
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

// Every case ends the same way, for one reason said once: CE (nvcc failed, or the library
// has no usable solve()), RE (the solution's process could not load it), JE (the judge's
// processes could not start).
std::vector<CaseResult> all_ended(const std::vector<TestCase> &cases, SupervisorSaw ending, const std::string &why) {
    std::vector<CaseResult> results;
    for (const auto &tc : cases) results.push_back(decide_case(tc.name, shape_of(tc), ended_early(ending, why)));
    return results;
}

std::vector<PlannedCase> planned(const std::vector<TestCase> &cases) {
    std::vector<PlannedCase> list;
    for (const auto &tc : cases) list.push_back({tc.name, tc.M, tc.N, tc.K});
    return list;
}

} // namespace

Progress::Progress() : enabled_(isatty(STDERR_FILENO)) {}

void Progress::show(const std::string &text) const {
    if (enabled_) std::cerr << "\r\033[K" << text << std::flush;
}

void Progress::clear() const {
    if (enabled_) std::cerr << "\r\033[K" << std::flush;
}

bool wanted(const TestCase &tc, const JudgeOptions &options) {
    if (!options.selection.cases.empty())
        return std::any_of(options.selection.cases.begin(), options.selection.cases.end(),
                           [&](const auto &s) { return case_selected(tc.name, s); });
    return std::find(options.selection.categories.begin(), options.selection.categories.end(), tc.category) !=
           options.selection.categories.end();
}

std::vector<TestCase> selected_cases(const JudgeOptions &options) {
    // A case from the command line, in the suite's problem's dims, by the same parser as a file.
    if (!options.selection.shape.empty())
        return {command_line_case(suite_problem(options.selection.testcases_dir), options.selection.shape,
                                  static_cast<long long>(options.selection.seed), options.selection.data)};
    // load_suite refuses a file whose expected C disagrees with A·B (load_testcase).
    auto suite = load_suite(options.selection.testcases_dir);
    std::vector<TestCase> selected;
    for (auto &tc : suite)
        if (wanted(tc, options)) selected.push_back(std::move(tc));
    return selected;
}

Reporters reporters_for(const JudgeOptions &options) {
    Reporters all;
    all.add(std::make_unique<ConsoleReporter>(std::cout, options.reports.show_output, options.reports.verbose));
    if (!options.reports.json_path.empty()) all.add(std::make_unique<JsonReporter>(options.reports.json_path));
    if (!options.reports.junit_path.empty()) all.add(std::make_unique<JUnitReporter>(options.reports.junit_path));
    if (!options.reports.plot_path.empty())
        all.add(std::make_unique<PlotReporter>(std::cout, options.reports.plot_path));
    if (!options.reports.stream_path.empty()) all.add(std::make_unique<StreamReporter>(options.reports.stream_path));
    // Stress, sanitizer and one-shape runs are experiments, not attempts at the suite.
    const bool attempt = options.mode == "rank" || (options.mode.empty() && options.selection.stress == 0 &&
                                                    !options.sanitize && options.selection.shape.empty());
    if (options.history.record && attempt)
        all.add(std::make_unique<HistoryReporter>(options.history.path, options.mode.empty() ? "judge" : options.mode,
                                                  options.version));
    return all;
}

Session::Session(const JudgeOptions &options, Reporters &report, std::string solution)
    : options(options), report(report), referee(sibling_program("gemm-referee")),
      runner(sibling_program("gemm-runner")) {
    context.solution = std::move(solution);
    context.time_budget_s = options.case_run.time_budget_s;
    context.correctness_time_budget_s = options.case_run.time_budget_given
                                            ? options.case_run.time_budget_s
                                            : std::min(options.case_run.time_budget_s, correctness_budget_s);
    context.precision = options.case_run.precision;
}

std::optional<int> Session::prepare(const std::vector<TestCase> &cases, std::unique_ptr<Supervisor> &supervisor,
                                    const std::vector<TestCase> &also_timed) {
    for (const auto *list : {&cases, &also_timed})
        for (const auto &tc : *list) {
            const std::array<long long, 4> shape{tc.M, tc.N, tc.K, tc.layout.batch};
            const bool timed = list == &also_timed || policy_for(tc, options.case_run).timed;
            if (timed && std::find(timed_shapes.begin(), timed_shapes.end(), shape) == timed_shapes.end())
                timed_shapes.push_back(shape);
        }
    // The referee and the baseline runner start now, and measure their empty calls while
    // the device is probed and the solution compiles (on the H200 that hides about a second
    // of CUDA start-up and calibration); the solution's runner waits for the library.
    context.planned = planned(cases);
    const ProblemDescriptor &problem = suite_problem(options.selection.testcases_dir);
    context.problem = problem.name;
    context.default_problem = problem.is_default;
    supervisor = std::make_unique<Supervisor>(supervision());
    supervisor_ = supervisor.get();
    supervisor->begin();
    const double probe_start = seconds_since_judge_start();
    context.device = probe(referee);
    const double compile_start = seconds_since_judge_start();
    context.timeline.probe_s = compile_start - probe_start;
    context.arch = choose_target(options.compile.arch, context.device, options.compile.nvcc);
    if (isatty(STDERR_FILENO)) std::cerr << "compiling " << escape_for_terminal(context.solution) << "…\n";
    context.compile =
        compile_solution(context.solution, CompileOptions{options.compile.nvcc,
                                                          context.arch,
                                                          options.compile.cache_dir,
                                                          include_dirs(options.compile.include_dirs, context.solution),
                                                          {},
                                                          {options.compile.timeout_s, options.compile.memory_gib},
                                                          problem.entry,
                                                          problem.is_default ? "" : problem.signature()});
    context.timeline.compile_s = seconds_since_judge_start() - compile_start;
    if (context.compile.rebuilt_damaged)
        std::cerr << wrap_to_width("judge: the cached library of " + escape_for_terminal(context.solution) +
                                       " had changed on disk; it was rebuilt",
                                   console_width, 2)
                  << "\n";
    if (!context.compile.ok) {
        report.compile_failed(context, context.compile.diagnostics);
        return finish(all_ended(cases, SupervisorSaw::NotCompiled, context.compile.diagnostics));
    }
    supervisor->set_library(context.compile.library);
    const WorkerStart start = supervisor->start();
    context.timeline.waited_for_gpu_s = start.waited_for_gpu_s;
    context.timeline.waited_for_referee_s = start.waited_for_referee_s;
    context.timeline.runner_start_s = start.runner_start_s;
    context.cpus = start.cpus;
    if (start.ok && !start.solve_error.empty()) {
        report.compile_failed(context, start.solve_error);
        return finish(all_ended(cases, SupervisorSaw::NotCompiled, start.solve_error));
    }
    if (!context.device.present) {
        // The compile line is the report's first line, on stdout as in a run with a GPU; why
        // nothing ran is a diagnostic, on stderr.
        const MissingGpu why = explain_missing_gpu(context.device.error, std::getenv("CUDA_VISIBLE_DEVICES"));
        report.no_gpu({why.sentence(), fs::path(context.solution).filename().string(),
                       target_in_words(context.arch, options.compile.arch, context.device), start.ok, start.failure,
                       problem.entry});
        report.run_finished(context, {}, exit_status::no_gpu);
        tell_missing_gpu(why);
        return exit_status::no_gpu;
    }
    if (!start.ok) {
        // Nothing can run: said once, every case ending for that one reason, judged once.
        std::vector<CaseResult> ended = all_ended(cases, start.ending, start.failure);
        const CaseResult said =
            ended.empty() ? decide_case("", {}, ended_early(start.ending, start.failure)) : ended.front();
        report.start_failed(context, said.verdict, said.detail);
        return finish(ended);
    }
    // What the kernel could not confine is said, never pretended: nvcc's sandbox, then the runner's.
    const std::vector<std::string> *unconfined[] = {&context.compile.unconfined, &start.unconfined};
    for (const auto *list : unconfined) {
        if (list->empty()) continue;
        std::string text;
        for (const auto &item : *list) text += (text.empty() ? "" : ", ") + item;
        report.note(std::string(list == &start.unconfined ? "solution's process" : "nvcc") + " unconfined: " + text);
    }
    return std::nullopt;
}

int Session::finish(const std::vector<CaseResult> &results) {
    const int status = results.empty() ? exit_status::all_accepted : exit_status_for(worst_verdict(results));
    context.timeline.cases = other_runs_.runs;
    context.timeline.cases_s = other_runs_.seconds;
    if (supervisor_) {
        context.timeline.cases += supervisor_->case_runs().runs;
        context.timeline.cases_s += supervisor_->case_runs().seconds;
    }
    context.timeline.total_s = seconds_since_judge_start();
    report.run_finished(context, results, status);
    return status;
}

SupervisorOptions Session::supervision(double time_limit_scale) const {
    SupervisorOptions s;
    s.referee = referee;
    s.runner = runner;
    s.library = context.compile.library;
    s.entry = entry_plan_text(entry_plan_of(suite_problem(options.selection.testcases_dir)));
    s.timed_shapes = timed_shapes;
    s.time_limit_scale = time_limit_scale;
    s.takes_gpu_turn = true;
    s.scratch_limit_bytes = static_cast<std::uint64_t>(options.case_run.scratch_limit_gib * double(1 << 30));
    return s;
}

std::string Session::reproduce_command(const Shape &shape, std::uint64_t seed, const std::string &data) const {
    std::string command =
        "./judge " + context.solution + " --shape " + shape_text(shape, "x") + " --seed " + std::to_string(seed);
    if (data != "uniform -1 1") command += " --data '" + data + "'";
    if (options.case_run.precision != "fp32") command += " --precision " + options.case_run.precision;
    return command;
}

// Shrinks a failing case to the smallest shape that still fails, with the case's
// generator (an explicit case's timed-input generator), untimed.
void Session::shrink(Supervisor &supervisor, const TestCase &failing, const CaseResult &failure) {
    const auto &g = failing.generator;
    std::string data = distribution_name(g.distribution);
    if (g.distribution == Distribution::Uniform || g.distribution == Distribution::Integers)
        data += " " + shortest_text(g.low) + " " + shortest_text(g.high);
    if (g.distribution == Distribution::Sparse) data += " " + shortest_text(g.density);
    // A failure that only the timed calls showed (a replayed answer) needs them to show again.
    CasePolicy attempt = untimed(policy_for(failing, options.case_run));
    attempt.timed = failure.failed_in_timed_calls;
    std::string last_detail;
    auto fails = [&](const Shape &s) {
        progress.show("shrinking: trying " + shape_text(s));
        const auto r = supervisor.run_case(generated_case(s, g.seed, data), attempt);
        if (r.verdict == Verdict::AC) return false;
        last_detail = std::string(verdict_name(r.verdict)) + ": " + r.detail;
        return true;
    };
    const ShrinkResult result = shrink_failure({failing.M, failing.N, failing.K}, fails);
    progress.clear();
    report.shrunk(
        {failing.name, result, describe_thresholds(result), reproduce_command(result.smallest, g.seed, data)});
}

std::vector<CaseResult> Session::judge_cases(Supervisor &supervisor, const std::vector<TestCase> &cases) {
    std::vector<CaseResult> results;
    // Shrinking judges generated cases of M, N and K, the default problem's: another problem's
    // entry point takes its own dims and layout, so its failures are not shrunk.
    bool shrunk = !options.case_run.shrink || !context.default_problem;
    int crashed_or_hung = 0;
    NotRun not_run;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const TestCase &tc = cases[i];
        if (fail_fast_stops(crashed_or_hung, options.keep_going)) {
            not_run.names.push_back(tc.name);
            continue;
        }
        progress.show("[" + std::to_string(i + 1) + "/" + std::to_string(cases.size()) + "] running " + tc.name);
        if (const auto too_big = too_big_for_gpu(tc, context.device.memory_bytes)) {
            progress.clear();
            report.case_skipped(tc, *too_big);
            continue;
        }
        const CasePolicy policy = policy_for(tc, options.case_run);
        results.push_back(supervisor.run_case(tc, policy));
        progress.clear();
        report.case_finished(results.back(), tc, policy);
        const Verdict v = results.back().verdict;
        crashed_or_hung += v == Verdict::RE || v == Verdict::TLE;
        if (!shrunk && (v == Verdict::WA || v == Verdict::RE) && policy.shrink) {
            shrunk = true;
            shrink(supervisor, tc, results.back());
        }
    }
    if (!not_run.names.empty()) {
        not_run.why = "stopped after " + std::to_string(fail_fast_limit) +
                      " cases ended in RE or TLE; --keep-going judges every case";
        report.cases_not_run(not_run);
    }
    return results;
}

// Random shapes until the first failure, which is then shrunk.
std::vector<CaseResult> Session::stress(Supervisor &supervisor) {
    const ProblemDescriptor &problem = suite_problem(options.selection.testcases_dir);
    const auto cases = stress_cases(problem, options.selection.stress, options.selection.seed,
                                    options.selection.stress_max_size, options.selection.data);
    std::vector<CaseResult> results;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const TestCase &tc = cases[i];
        progress.show("stress [" + std::to_string(i + 1) + "/" + std::to_string(cases.size()) + "] " +
                      case_size_text(tc, problem.dims));
        results.push_back(supervisor.run_case(tc, untimed(policy_for(tc, options.case_run))));
        if (results.back().verdict == Verdict::AC) continue;
        progress.clear();
        report.stressed({i + 1, cases.size(), tc.name, options.selection.stress_max_size, options.selection.seed});
        report.case_finished(results.back(), tc, policy_for(tc, options.case_run));
        if (options.case_run.shrink && context.default_problem) shrink(supervisor, tc, results.back());
        return results;
    }
    progress.clear();
    report.stressed(
        {cases.size(), cases.size(), std::nullopt, options.selection.stress_max_size, options.selection.seed});
    return results;
}

// Every small case under each compute-sanitizer tool; a finding is RE with its source line.
std::vector<CaseResult> Session::sanitize(std::vector<TestCase> cases) {
    cases.erase(
        std::remove_if(cases.begin(), cases.end(), [](const TestCase &tc) { return !small_enough_to_sanitize(tc); }),
        cases.end());
    std::vector<CaseResult> results(cases.size());
    for (std::size_t i = 0; i < cases.size(); ++i) results[i] = result_for(cases[i], Verdict::AC, "");
    const std::string program = sanitizer_program(options.compile.nvcc);
    for (const auto &tool : sanitizer_tools()) {
        SupervisorOptions s = supervision(100.0);
        s.runner_prefix = sanitizer_prefix(program, tool);
        s.relaxed_for = "compute-sanitizer";
        s.timed_shapes.clear(); // untimed
        s.startup_limit_s = 600;
        Supervisor supervisor(s);
        for (std::size_t i = 0; i < cases.size(); ++i) {
            progress.show(tool + " [" + std::to_string(i + 1) + "/" + std::to_string(cases.size()) + "] " +
                          cases[i].name);
            CaseResult r = supervisor.run_case(cases[i], untimed(policy_for(cases[i], options.case_run)));
            CaseResult &combined = results[i];
            add_sanitizer_run(combined, tool, r, sanitizer_finding(tool, r.output_tail));
            if (!r.output_tail.empty()) combined.output_tail += "[" + tool + "]\n" + r.output_tail;
        }
        other_runs_.runs += supervisor.case_runs().runs;
        other_runs_.seconds += supervisor.case_runs().seconds;
    }
    progress.clear();
    for (std::size_t i = 0; i < cases.size(); ++i)
        report.case_finished(results[i], cases[i], policy_for(cases[i], options.case_run));
    report.note("sanitizer: " + std::to_string(cases.size()) + " cases with M·N·K ≤ 2^22 under " +
                std::to_string(sanitizer_tools().size()) + " tools");
    return results;
}

} // namespace gemm
