#include "batch/batch_table.hpp"
#include "common/terminal_text.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace gemm::batch {

namespace {

constexpr std::size_t name_limit = 36;

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
    static const char *order[] = {"AC", "WA", "TLE", "RE", "CE", "JE"};
    std::string text;
    for (const char *verdict : order)
        if (const auto at = row.counts.find(verdict); at != row.counts.end() && at->second > 0)
            text += (text.empty() ? "" : " ") + std::to_string(at->second) + " " + verdict;
    return text.empty() ? "—" : text;
}

// The folder every submission is in ("/tmp/x/subs/"), said once above the table rather than
// on every row; "" when they are in different folders or none.
std::string common_folder(const std::vector<BatchRow> &rows) {
    if (rows.empty()) return "";
    std::string common = rows.front().submission.substr(0, rows.front().submission.rfind('/') + 1);
    for (const auto &row : rows)
        while (!common.empty() && row.submission.compare(0, common.size(), common) != 0)
            common = common.substr(0, common.rfind('/', common.size() - 2) + 1);
    return common;
}

} // namespace

void sort_as_leaderboard(BatchResult &result) {
    std::stable_sort(result.rows.begin(), result.rows.end(), ranks_before);
}

void print_batch_table(std::ostream &out, const BatchResult &result) {
    const bool scored = std::any_of(result.rows.begin(), result.rows.end(), [](const BatchRow &r) { return r.score; });
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
    if (!folder.empty()) out << "submissions in " << escape_for_terminal(folder) << "\n";
    out << header << padded("judged in", 10) << "GPU\n";
    std::map<std::string, int> worst_counts;
    int place = 0;
    for (const auto &row : result.rows) {
        ++worst_counts[row.worst];
        std::string line = padded(std::to_string(++place), place_width) + padded(name_of(row), name_width) +
                           padded(row.worst, 6) + padded(counts_text(row), counts_width);
        if (scored) line += padded(row.score ? fixed(*row.score, 3) : "—", 6);
        out << line << padded(duration(row.wall_s), 10) << escape_for_terminal(row.gpu) << "\n";
    }
    for (const auto &row : result.rows)
        if (!row.note.empty() && (row.worst == "JE" || row.worst == "no GPU"))
            out << name_of(row) << ": " << row.worst << ": " << escape_for_terminal(row.note) << "\n";
    std::string totals;
    for (const char *worst : {"AC", "WA", "TLE", "RE", "CE", "JE", "no GPU"})
        if (worst_counts.count(worst))
            totals += (totals.empty() ? "" : ", ") + std::to_string(worst_counts[worst]) + " " + worst;
    out << result.rows.size() << " submission" << (result.rows.size() == 1 ? "" : "s");
    if (!totals.empty()) out << " (worst verdict: " << totals << ")";
    if (!result.gpus.empty())
        out << " · " << result.gpus.size() << " lane" << (result.gpus.size() == 1 ? "" : "s") << " · "
            << duration(result.wall_s);
    if (result.judged_before > 0) out << " · " << result.judged_before << " judged before, not again";
    out << "\nreports: " << escape_for_terminal(result.results_folder) << "/ (each row's .json and .txt)\n";
}

std::string batch_json(const BatchResult &result) {
    nlohmann::json rows = nlohmann::json::array();
    int place = 0;
    for (const auto &row : result.rows) {
        nlohmann::json j = row;
        j["place"] = ++place;
        rows.push_back(j);
    }
    return nlohmann::json{{"batch",
                           {{"submissions", result.rows.size()},
                            {"gpus", result.gpus},
                            {"results", result.results_folder},
                            {"wall_s", result.wall_s},
                            {"judged_before", result.judged_before}}},
                          {"rows", rows}}
               .dump(2) +
           "\n";
}

} // namespace gemm::batch
