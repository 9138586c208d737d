#include "command_line/options/problem_choice.hpp"
#include "command_line/options/folder_settings.hpp"
#include "common/errors.hpp"
#include "common/text.hpp"
#include "testcases/command_line_case.hpp"
#include "testcases/entry_signature.hpp"
#include "testcases/problem_catalog.hpp"

#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>

namespace gemm {

namespace {

void refuse_unjudged(const ProblemDescriptor &problem) {
    const auto missing = problem.not_yet_judged();
    if (!missing.empty())
        throw UsageError("problem " + problem.name + " is listed but not yet judged: this judge lacks " +
                         fmt::format("{}", fmt::join(missing, ", ")) + " (docs/problems.md)");
}

// --shape and --stress are in the chosen problem's dims, checked now that it is known.
// --stress's --data too, on the smallest shape, so that a wrong one is refused before the GPU.
void check_generated_cases(const JudgeOptions &options, const ProblemDescriptor &problem) {
    const auto seed = static_cast<long long>(options.selection.seed);
    if (!options.selection.shape.empty())
        command_line_case(problem, options.selection.shape, seed, options.selection.data);
    else if (options.selection.stress > 0)
        command_line_case(problem, std::vector<int>(problem.dims.size(), 1), seed, options.selection.data);
}

} // namespace

void choose_problem(JudgeOptions &options, const std::string &checkout_testcases) {
    std::string &suite = options.selection.testcases_dir;
    // --problem, else the solution's folder's gemm-judge.conf.
    const std::string name = !options.selection.problem.empty() || options.solution.empty()
                                 ? options.selection.problem
                                 : folder_settings(options.solution).problem;
    if (!name.empty()) {
        const auto folder = problem_folder(checkout_testcases, name);
        if (!folder)
            throw UsageError((options.selection.problem.empty() ? "problem " : "--problem ") +
                             unknown_problem(checkout_testcases, name));
        if (suite == checkout_testcases) suite = *folder;
    } else if (suite == checkout_testcases && !options.solution.empty()) {
        // The entry point read from the source: the default problem when it answers it (a
        // solution judged as before), else the one other problem it answers.
        const auto source = read_text_file(options.solution);
        const auto functions = extern_c_functions(source.value_or(""));
        const auto problems = problems_below(checkout_testcases);
        std::vector<const ProblemDescriptor *> answered;
        for (const auto &p : problems)
            if (answers(functions, p)) answered.push_back(&p);
        if (!answered.empty() && answered.front() != &problems.front()) {
            if (answered.size() > 1) {
                std::vector<std::string> names;
                for (const auto *p : answered) names.push_back(p->name);
                throw UsageError(options.solution + "'s entry point answers " + std::to_string(names.size()) +
                                 " problems: " + fmt::format("{}", fmt::join(names, ", ")) +
                                 "; name one with --problem");
            }
            suite = answered.front()->folder;
        }
    }
    const ProblemDescriptor &problem = suite_problem(suite);
    refuse_unjudged(problem);
    // --data's default is decided here, once the problem is known: a problem whose operands are
    // not floats has its own; a --data given is kept, and refused by the case's checks if wrong.
    if (!options.selection.data_given) options.selection.data = problem.default_data();
    check_generated_cases(options, problem);
}

} // namespace gemm
