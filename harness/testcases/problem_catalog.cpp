#include "testcases/problem_catalog.hpp"

#include "common/nearest_name.hpp"

#include <algorithm>
#include <filesystem>

namespace gemm {

namespace fs = std::filesystem;

std::vector<ProblemDescriptor> problems_below(const std::string &testcases_root) {
    std::vector<ProblemDescriptor> problems{suite_problem(testcases_root)};
    problems.front().folder = testcases_root;
    std::vector<std::string> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(testcases_root, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->path().filename() == "problem.json" && it->path().parent_path() != fs::path(testcases_root))
            files.push_back(it->path().string());
    for (const auto &file : files) problems.push_back(load_problem(file));
    std::sort(problems.begin() + 1, problems.end(),
              [](const ProblemDescriptor &a, const ProblemDescriptor &b) { return a.name < b.name; });
    return problems;
}

std::optional<std::string> problem_folder(const std::string &testcases_root, const std::string &name) {
    if (name == suite_problem(testcases_root).name) return testcases_root;
    const fs::path folder = fs::path(testcases_root) / name;
    std::error_code ec;
    if (name.find("..") == std::string::npos && fs::exists(folder / "problem.json", ec) &&
        load_problem((folder / "problem.json").string()).name == name)
        return folder.string();
    return std::nullopt;
}

std::string unknown_problem(const std::string &testcases_root, const std::string &name) {
    std::vector<std::string> names;
    for (const auto &p : problems_below(testcases_root)) names.push_back(p.name);
    const auto near = nearest_name(name, names);
    return name + ": no problem has this name; " +
           (near ? "did you mean " + *near + "?" : "./judge problems lists them");
}

} // namespace gemm
