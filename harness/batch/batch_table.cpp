#include "batch/batch_table.hpp"
#include "batch/gpu_lanes.hpp"
#include "common/terminal_text.hpp"
#include "testcases/problem.hpp"

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace gemm::batch {

namespace {

constexpr std::size_t name_limit = 36;
// Every line the batch prints fits a terminal of 100 columns.
constexpr std::size_t table_width = 100;

std::string fixed(double value, int digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", digits, value);
    return text;
}

std::string duration(double seconds) {
    if (seconds < 60) return fixed(seconds, 1) + " s";
    const int whole = static_cast<int>(seconds + 0.5);
    return std::to_string(whole / 60) + " min " + std::to_string(whole % 60) + " s";
}

// A name shortened in the middle, its end (the file) kept.
std::string shortened(const std::string &name) {
    const std::string shown = escape_for_terminal(name);
    if (display_width(shown) <= name_limit || shown.size() <= name_limit) return shown;
    return "…" + shown.substr(shown.size() - (name_limit - 1));
}

std::string padded(const std::string &text, std::size_t width) {
    const std::size_t shown = display_width(text);
    return text + std::string(shown < width ? width - shown : 0, ' ') + "  ";
}

// "45 AC 2 WA": the counts, the best verdicts first.
std::string counts_text(const BatchRow &row) {
    std::string text;
    for (const auto &verdict : verdict_table())
        if (const auto at = row.counts.find(verdict.name); at != row.counts.end() && at->second > 0)
            text += (text.empty() ? "" : " ") + std::to_string(at->second) + " " + verdict.name;
    return text.empty() ? "—" : text;
}

// The folder that holds `folder` ("a/b/" → "a/"), "" at the top of a relative path or at "/".
std::string parent_folder(const std::string &folder) {
    if (folder.size() <= 1) return "";
    const auto slash = folder.rfind('/', folder.size() - 2);
    return slash == std::string::npos ? "" : folder.substr(0, slash + 1);
}

// The folder every submission is in ("/tmp/x/subs/"), said once above the table rather than
// on every row; "" when they share none but "/" (or mix relative and absolute paths).
std::string common_folder(const std::vector<BatchRow> &rows) {
    if (rows.empty()) return "";
    std::string common = rows.front().submission.substr(0, rows.front().submission.rfind('/') + 1);
    for (const auto &row : rows)
        while (!common.empty() && row.submission.compare(0, common.size(), common) != 0) common = parent_folder(common);
    return common == "/" ? "" : common;
}

// A line that may be long (a judge's message), already escaped, wrapped to the table's width.
void print_wrapped(std::ostream &out, const std::string &line) { out << wrap_to_width(line, table_width, 2) << "\n"; }

// Why the rows without a verdict have none: each JE's reason, and why there was no GPU, said
// once for every row it held back.
void print_notes(std::ostream &out, const std::vector<BatchRow> &rows,
                 const std::function<std::string(const BatchRow &)> &name_of) {
    for (const auto &row : rows)
        if (!row.note.empty() && row.worst == Verdict::JE)
            print_wrapped(out, name_of(row) + ": JE: " + escape_for_terminal(row.note));
    std::vector<std::string> reasons;
    std::map<std::string, int> held_back;
    for (const auto &row : rows)
        if (row.no_gpu() && held_back[row.note]++ == 0) reasons.push_back(row.note);
    for (const auto &reason : reasons) {
        const int count = held_back[reason];
        const std::string rows_text = count == static_cast<int>(rows.size())
                                          ? ""
                                          : " for " + std::to_string(count) + " submission" + (count == 1 ? "" : "s");
        print_wrapped(out, "no GPU" + rows_text + ": compiled, not run" +
                               (reason.empty() ? "" : ": " + escape_for_terminal(reason)));
    }
}

} // namespace

void sort_as_leaderboard(BatchResult &result) {
    // A row whose judge left no report (it crashed, hung or never started) names no problem:
    // it is the batch's --problem's, or the one problem every other row answers.
    std::set<std::string> named;
    for (const auto &row : result.rows)
        if (!row.problem.empty()) named.insert(row.problem);
    const std::string board_of_unnamed = !result.problem.empty() ? result.problem
                                         : named.size() == 1     ? *named.begin()
                                                                 : std::string();
    for (auto &row : result.rows)
        if (row.problem.empty()) row.problem = board_of_unnamed;
    // Each problem's rows together, by name; the rows of no known problem last.
    std::stable_sort(result.rows.begin(), result.rows.end(), [](const BatchRow &a, const BatchRow &b) {
        if (a.problem != b.problem) return !a.problem.empty() && (b.problem.empty() || a.problem < b.problem);
        return ranks_before(a, b);
    });
}

void print_batch_table(std::ostream &out, const BatchResult &result) {
    const bool scored = std::any_of(result.rows.begin(), result.rows.end(), [](const BatchRow &r) { return r.score; });
    // Without a GPU anywhere the GPU column would say "none" on every row: the note says it once.
    const bool any_gpu = std::any_of(result.rows.begin(), result.rows.end(),
                                     [](const BatchRow &r) { return !r.gpu.empty() && r.gpu != no_gpu_lane; });
    const std::string folder = common_folder(result.rows);
    const auto name_of = [&](const BatchRow &row) { return shortened(row.submission.substr(folder.size())); };
    std::size_t name_width = std::string("submission").size(), counts_width = std::string("cases").size();
    for (const auto &row : result.rows) {
        name_width = std::max(name_width, display_width(name_of(row)));
        counts_width = std::max(counts_width, display_width(counts_text(row)));
    }
    const std::size_t place_width = std::to_string(result.rows.size()).size();
    std::string header = padded("#", place_width) + padded("submission", name_width) + padded("worst", 6) +
                         padded("cases", counts_width);
    if (scored) header += padded("score", 6);
    if (!folder.empty()) print_wrapped(out, "submissions in " + escape_for_terminal(folder));
    out << header << (any_gpu ? padded("judged in", 10) + "GPU" : "judged in") << "\n";
    // Each problem's rows under its name, placed among themselves, where the rows answer more
    // than one problem or answer another than the default one.
    std::set<std::string> problems;
    for (const auto &row : result.rows) problems.insert(row.problem);
    problems.erase(""); // rows of no known problem: under a heading of their own only beside others
    const bool by_problem =
        problems.size() > 1 ||
        (problems.size() == 1 && !problems.begin()->empty() && *problems.begin() != default_problem().name) ||
        !result.problem.empty();
    std::map<std::string, int> worst_counts;
    int place = 0;
    const std::string *heading = nullptr;
    for (const auto &row : result.rows) {
        if (by_problem && (!heading || *heading != row.problem)) {
            heading = &row.problem;
            place = 0;
            print_wrapped(out, "problem " + (row.problem.empty() ? std::string("unknown (the judge left no report)")
                                                                 : escape_for_terminal(row.problem)));
        }
        ++worst_counts[row.worst_text()];
        std::string line = padded(std::to_string(++place), place_width) + padded(name_of(row), name_width) +
                           padded(row.worst_text(), 6) + padded(counts_text(row), counts_width);
        if (scored) line += padded(row.score ? fixed(*row.score, 3) : "—", 6);
        line += any_gpu ? padded(duration(row.wall_s), 10) + escape_for_terminal(row.gpu) : duration(row.wall_s);
        out << truncate_to_width(line, table_width) << "\n";
    }
    print_notes(out, result.rows, name_of);
    std::string totals;
    for (const auto &verdict : verdict_table())
        if (worst_counts.count(verdict.name))
            totals += (totals.empty() ? "" : ", ") + std::to_string(worst_counts[verdict.name]) + " " + verdict.name;
    std::string summary = std::to_string(result.rows.size()) + " submission" + (result.rows.size() == 1 ? "" : "s");
    if (!totals.empty()) summary += " (worst verdict: " + totals + ")";
    if (!result.gpus.empty() && any_gpu)
        summary += " · " + std::to_string(result.gpus.size()) + " lane" + (result.gpus.size() == 1 ? "" : "s") + " · " +
                   duration(result.wall_s);
    else if (!result.gpus.empty())
        summary += " · " + duration(result.wall_s);
    if (result.judged_before > 0) summary += " · " + std::to_string(result.judged_before) + " judged before (kept)";
    print_wrapped(out, summary);
    print_wrapped(out, "reports: " + escape_for_terminal(result.results_folder) + "/ (each row's .json and .txt)");
}

std::string batch_json(const BatchResult &result) {
    nlohmann::json rows = nlohmann::json::array();
    int place = 0;
    for (std::size_t i = 0; i < result.rows.size(); ++i) {
        const BatchRow &row = result.rows[i];
        if (i > 0 && result.rows[i - 1].problem != row.problem) place = 0; // a place within its problem
        nlohmann::json j = row;
        j["place"] = ++place;
        rows.push_back(j);
    }
    return nlohmann::json{{"batch",
                           {{"submissions", result.rows.size()},
                            {"gpus", result.gpus},
                            {"results", result.results_folder},
                            {"wall_s", result.wall_s},
                            {"judged_before", result.judged_before},
                            {"problem", result.problem}}},
                          {"rows", rows}}
               .dump(2) +
           "\n";
}

} // namespace gemm::batch
