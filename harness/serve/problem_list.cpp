#include "serve/problem_list.hpp"
#include "common/text.hpp"
#include "testcases/problem_catalog.hpp"

#include <filesystem>

namespace gemm::serve {

namespace {

// Longer than any problem's name by far: not looked up for a nearest name, whose edit
// distance would cost its length times every name's.
constexpr std::size_t longest_name_looked_up = 200;

nlohmann::json entry_of(const ProblemDescriptor &p) {
    const auto missing = p.not_yet_judged();
    return {
        {"name", p.name},       {"site", p.site},          {"title", p.title},          {"signature", p.signature()},
        {"dtypes", p.dtypes()}, {"default", p.is_default}, {"judged", missing.empty()}, {"not_yet_judged", missing}};
}

nlohmann::json text_or_null(const std::string &folder, const char *file) {
    const auto text = read_text_file((std::filesystem::path(folder) / file).string());
    return text ? nlohmann::json(*text) : nlohmann::json();
}

} // namespace

nlohmann::json problems_json(const std::string &testcases_root) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto &p : problems_below(testcases_root)) list.push_back(entry_of(p));
    return list;
}

std::variant<ProblemDescriptor, std::string> named_problem(const std::string &testcases_root, const std::string &name) {
    for (auto &p : problems_below(testcases_root))
        if (p.name == name) return std::move(p);
    if (name.size() > longest_name_looked_up) return std::string("no problem has a name this long");
    return unknown_problem(testcases_root, name);
}

nlohmann::json problem_page_json(const ProblemDescriptor &problem) {
    nlohmann::json page = entry_of(problem);
    page["url"] = problem.url;
    page["baseline"] = problem.baseline;
    page["statement"] = text_or_null(problem.folder, "statement.md");
    page["starter"] = text_or_null(problem.folder, "starter.cu");
    return page;
}

} // namespace gemm::serve
