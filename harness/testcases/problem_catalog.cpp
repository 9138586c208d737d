#include "testcases/problem_catalog.hpp"

#include "common/nearest_name.hpp"

#include <algorithm>
#include <filesystem>

namespace gemm {

namespace fs = std::filesystem;

namespace {

// "kernelbench/2-…" before "kernelbench/10-…": runs of digits compare as numbers, the rest
// as text, so a site's numbered problems list in their site's order.
bool in_natural_order(const std::string &a, const std::string &b) {
    std::size_t i = 0, j = 0;
    const auto digit = [](char c) { return c >= '0' && c <= '9'; };
    while (i < a.size() && j < b.size()) {
        if (digit(a[i]) && digit(b[j])) {
            std::size_t i_end = i, j_end = j;
            while (i_end < a.size() && digit(a[i_end])) ++i_end;
            while (j_end < b.size() && digit(b[j_end])) ++j_end;
            const std::string x = a.substr(i, i_end - i), y = b.substr(j, j_end - j);
            const std::string x_trimmed = x.substr(std::min(x.find_first_not_of('0'), x.size() - 1));
            const std::string y_trimmed = y.substr(std::min(y.find_first_not_of('0'), y.size() - 1));
            if (x_trimmed.size() != y_trimmed.size()) return x_trimmed.size() < y_trimmed.size();
            if (x_trimmed != y_trimmed) return x_trimmed < y_trimmed;
            i = i_end;
            j = j_end;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

} // namespace

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
              [](const ProblemDescriptor &a, const ProblemDescriptor &b) { return in_natural_order(a.name, b.name); });
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
