#include "serve/views.hpp"
#include "command_line/history/history.hpp"
#include "serve/html_text.hpp"
#include "testcases/problem.hpp"
#include "testcases/testcase.hpp"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <set>

namespace gemm::serve {

namespace {

// The comment lines at the top of a case file: what the setter says the case is for.
std::string purpose_of(const std::string &path) {
    std::ifstream file(path);
    std::string purpose, line;
    while (std::getline(file, line) && !line.empty() && line[0] == '#')
        purpose +=
            (purpose.empty() ? "" : " ") +
            line.substr(line.find_first_not_of("# ") == std::string::npos ? line.size() : line.find_first_not_of("# "));
    return purpose;
}

std::string cell(const std::string &text, const char *cls = nullptr) {
    return cls ? fmt::format("<td class=\"{}\">{}</td>", cls, html_escaped(text))
               : "<td>" + html_escaped(text) + "</td>";
}

std::string optional_figure(const std::optional<double> &value, const char *format) {
    return value ? fmt::format(fmt::runtime(format), *value) : "";
}

// An attempt that cannot be read is the history's problem, said in place of the table.
template <typename Render> std::string from_history(const std::string &path, Render render) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return "<p class=\"empty\">No attempts recorded yet.</p>";
    try {
        const History history = History::open(path);
        return render(history);
    } catch (const std::exception &e) {
        return "<p class=\"error\">" + html_escaped(e.what()) + "</p>";
    }
}

std::string attempts_table(const std::vector<Attempt> &attempts, bool with_pick) {
    std::string html = "<table class=\"attempts\"><thead><tr>";
    if (with_pick) html += "<th>compare</th>";
    html += "<th>#</th><th>time (UTC)</th><th>mode</th><th>solution</th><th>GPU</th><th>verdict</th>"
            "<th>× cuBLAS</th><th>geomean ms</th></tr></thead><tbody>";
    for (const auto &a : attempts) {
        html += "<tr>";
        if (with_pick) html += fmt::format("<td><input type=\"checkbox\" class=\"pick\" value=\"{}\"></td>", a.id);
        html += cell(std::to_string(a.id)) + cell(a.time_utc) + cell(a.mode) + cell(a.solution_name) +
                cell(a.gpu_name) + cell(a.worst_verdict, ("verdict " + a.worst_verdict).c_str()) +
                cell(optional_figure(a.geomean_ratio_to_cublas, "{:.3f}")) +
                cell(optional_figure(a.geomean_ms, "{:.4g}")) + "</tr>";
    }
    return html + "</tbody></table>";
}

} // namespace

std::string testcases_html(const std::string &testcases_dir) {
    const Suite suite = load_suite_leniently(testcases_dir);
    // A problem's cases in its own dims, as --list says them (testcases/testcase.hpp).
    const auto &dim_names = suite_problem(testcases_dir).dims;
    std::string html = "<table class=\"testcases\"><thead><tr><th>case</th><th>category</th><th>size</th>"
                       "<th>time limit</th><th>what it is for</th></tr></thead><tbody>";
    for (const auto &tc : suite.cases)
        html += "<tr>" + cell(tc.name) + cell(tc.category) + cell(case_size_text(tc, dim_names)) +
                cell(fmt::format("{:.3g} s", time_limit_s(tc))) + cell(purpose_of(tc.path)) + "</tr>";
    html += "</tbody></table>";
    for (const auto &problem : suite.problems) html += "<p class=\"error\">" + html_escaped(problem) + "</p>";
    return html;
}

std::string history_html(const std::string &history_path, const std::string &solution) {
    return from_history(history_path, [&](const History &history) {
        AttemptFilter filter;
        if (!solution.empty()) filter.solution = solution;
        auto attempts = history.attempts(filter);
        if (attempts.empty()) return std::string("<p class=\"empty\">No attempts recorded yet.</p>");
        std::reverse(attempts.begin(), attempts.end());
        return attempts_table(attempts, true);
    });
}

std::string leaderboard_html(const std::string &history_path) {
    return from_history(history_path, [&](const History &history) {
        std::string html;
        for (const auto &[gpu, problem] : history.boards())
            for (const char *mode : {"rank", "judge"}) {
                const auto board = history.leaderboard(gpu, problem, mode);
                if (board.empty()) continue;
                html += fmt::format("<h3>{} · {} — best {} run of each solution</h3>", html_escaped(gpu),
                                    html_escaped(problem), mode);
                html += attempts_table(board, false);
            }
        return html.empty() ? std::string("<p class=\"empty\">No attempt with every case AC and a score yet.</p>")
                            : html;
    });
}

} // namespace gemm::serve
