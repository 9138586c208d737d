#include "authoring/case_command.hpp"
#include "authoring/case_tools.hpp"
#include "core/verdict.hpp"

#include <filesystem>
#include <iostream>

namespace gemm {

namespace {

TestCase find_case(const std::string &suite_root, const std::string &name) {
    for (auto &tc : load_suite(suite_root))
        if (case_selected(tc.name, name)) return tc;
    throw TestcaseError("no testcase named " + name + " in " + suite_root + " (./judge --list lists them)");
}

int create(const CaseCommandOptions &c, const std::string &suite_root) {
    NewCaseRequest request;
    request.name = c.name;
    request.M = c.shape.at(0);
    request.N = c.shape.at(1);
    request.K = c.shape.at(2);
    request.data = c.data;
    request.seed = c.seed;
    request.time_limit_s = c.time_limit_s;
    request.comment = c.comment;
    std::cout << "wrote " << create_generated_case(suite_root, request) << "\n";
    return 0;
}

int validate(const CaseCommandOptions &c, const std::string &suite_root) {
    const std::string path = c.path.empty() ? suite_root : c.path;
    const auto problems = validate_path(path, suite_root);
    for (const auto &p : problems) std::cout << p << "\n";
    if (!problems.empty()) return exit_status::judge_error;
    std::cout << path << ": valid\n";
    return 0;
}

} // namespace

int run_case_command(const CaseCommandOptions &c, const std::string &suite_root) {
    try {
        if (c.action == "new") return create(c, suite_root);
        if (c.action == "validate") return validate(c, suite_root);
        if (c.action == "show") {
            std::cout << show_case(find_case(suite_root, c.name));
            return 0;
        }
        if (c.action == "export") {
            const auto [in, ans] = export_pair(find_case(suite_root, c.name), c.dir);
            std::cout << "wrote " << in << " and " << ans << "\n";
            return 0;
        }
        if (c.action == "import") {
            std::cout << "wrote " << import_pair(suite_root, c.name, c.in_path, c.ans_path) << "\n";
            return 0;
        }
    } catch (const TestcaseError &e) {
        std::cerr << e.what() << "\n";
        return exit_status::judge_error;
    }
    std::cerr << "judge case: unknown action " << c.action << "\n";
    return exit_status::usage;
}

} // namespace gemm
