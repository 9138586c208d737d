#include "testcases/case_command.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "testcases/case_tools.hpp"
#include "testcases/problem.hpp"
#include "verification/verdict.hpp"

#include <filesystem>
#include <iostream>

namespace gemm {

namespace {

// Text made from testcase files and their names reaches the terminal escaped.
// A message longer than a terminal's line goes on under a two-space indent, broken at spaces.
void print(std::ostream &out, const std::string &text) {
    out << wrap_to_width(escape_for_terminal(text, true), console_width, 2);
}

// The named case from the good files of the suite: another file being bad does not stop
// it (it is mentioned), the named one being bad is its own problem.
TestCase find_case(const std::string &suite_root, const std::string &name) {
    Suite suite = load_suite_leniently(suite_root);
    for (auto &tc : suite.cases) {
        if (!case_selected(tc.name, name)) continue;
        if (!suite.problems.empty())
            std::cerr << "judge: note: " << suite.problems.size()
                      << " other testcase file(s) are invalid; `./judge case validate` lists them\n";
        return std::move(tc);
    }
    std::string why = "no valid testcase named " + escape_for_terminal(name) + " in " +
                      escape_for_terminal(suite_root) + " (./judge --list lists them)";
    for (const auto &problem : suite.problems) why += "\n" + problem;
    throw TestcaseError(why);
}

NewCaseRequest new_case_request(const CaseCommandOptions &c, const ProblemDescriptor &problem) {
    NewCaseRequest request;
    request.name = c.name;
    request.dims.assign(c.shape.begin(), c.shape.end());
    request.data = c.data_given ? c.data : problem.default_data();
    request.seed = c.seed;
    request.time_limit_s = c.time_limit_s;
    request.comment = c.comment;
    return request;
}

// Problems go to stderr, so `validate > report` still shows them and a script can tell.
int validate(const CaseCommandOptions &c, const std::string &suite_root) {
    const std::string path = c.path.empty() ? suite_root : c.path;
    const auto problems = validate_path(path, suite_root);
    for (const auto &p : problems) print(std::cerr, p + "\n");
    if (!problems.empty()) return exit_status::judge_error;
    print(std::cout, path + ": valid\n");
    return 0;
}

// "wrote" is printed only once the writing returned.
int run_action(const CaseCommandOptions &c, const std::string &suite_root) {
    if (c.action == "new") {
        const std::string path = create_generated_case(suite_root, new_case_request(c, suite_problem(suite_root)));
        print(std::cout, "wrote " + path + "\n");
        return 0;
    }
    if (c.action == "validate") return validate(c, suite_root);
    if (c.action == "show") {
        print(std::cout, show_case(find_case(suite_root, c.name), suite_problem(suite_root).dims));
        return 0;
    }
    if (c.action == "export") {
        const auto [in, ans] = export_pair(find_case(suite_root, c.name), c.dir);
        print(std::cout, "wrote " + in + " and " + ans + "\n");
        return 0;
    }
    if (c.action == "import") {
        const std::string path = import_pair(suite_root, c.name, c.in_path, c.ans_path);
        print(std::cout, "wrote " + path + "\n");
        return 0;
    }
    std::cerr << "judge: case: unknown action " << c.action << "\n";
    return exit_status::usage;
}

} // namespace

int run_case_command(const CaseCommandOptions &c, const std::string &suite_root) {
    try {
        return run_action(c, suite_root);
    } catch (const UsageError &e) {
        print(std::cerr, std::string("judge: case ") + c.action + ": " + e.what() + "\n");
        return exit_status::usage;
    } catch (const SetupError &e) {
        print(std::cerr, std::string("judge: case ") + c.action + ": " + e.what() + "\n");
        return exit_status::setup;
    } catch (const TestcaseError &e) {
        print(std::cerr, std::string(e.what()) + "\n");
        return exit_status::judge_error;
    }
}

} // namespace gemm
