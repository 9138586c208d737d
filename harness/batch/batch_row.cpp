#include "batch/batch_row.hpp"

#include <algorithm>
#include <cstring>

namespace gemm::batch {

namespace {

// The last line of what the judge printed that says something: its own reason.
std::string last_line(const std::string &output) {
    std::string text = output;
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
    const auto newline = text.rfind('\n');
    text = newline == std::string::npos ? text : text.substr(newline + 1);
    return text.size() > 200 ? text.substr(0, 200) + "…" : text;
}

// The place of a row in the verdicts' order; no GPU after every verdict.
int severity(const BatchRow &row) {
    return row.worst ? verdict_rank(*row.worst) : static_cast<int>(verdict_table().size());
}

} // namespace

bool BatchRow::settled() const { return worst && *worst != Verdict::JE; }

std::string BatchRow::worst_text() const { return worst ? verdict_name(*worst) : "no GPU"; }

int BatchRow::cases() const {
    int total = 0;
    for (const auto &[verdict, count] : counts) total += count;
    return total;
}

BatchRow row_from_judge(const judge_child::JudgeEnding &ending, const std::string &report) {
    BatchRow row;
    row.judge_exit_status = ending.timed_out || ending.signal ? -1 : ending.exit_status;
    if (!ending.started) {
        row.worst = Verdict::JE;
        row.note = "the judge could not be started";
        return row;
    }
    if (ending.timed_out) {
        row.worst = Verdict::JE;
        row.note = "the judge ran past the batch's limit of " + std::to_string(static_cast<int>(ending.limit_s)) +
                   " s and was stopped (--submission-timeout)";
        return row;
    }
    if (ending.signal) {
        row.worst = Verdict::JE;
        row.note = "the judge was killed by signal " + std::to_string(ending.signal) + " (" + strsignal(ending.signal) +
                   "); its last line: " + last_line(ending.output);
        return row;
    }
    row.worst = verdict_of_exit_status(ending.exit_status);
    nlohmann::json json;
    try {
        if (!report.empty()) json = nlohmann::json::parse(report);
    } catch (const std::exception &) {
        json = nullptr; // a report cut short: the exit status still says the worst
    }
    if (json.is_object()) {
        if (json.contains("problem") && json["problem"].is_string()) row.problem = json["problem"].get<std::string>();
        const nlohmann::json summary = json.contains("summary") ? json["summary"] : nlohmann::json();
        if (summary.contains("counts") && summary["counts"].is_object())
            for (const auto &[verdict, count] : summary["counts"].items())
                if (count.is_number_integer()) row.counts[verdict] = count.get<int>();
        if (summary.contains("no_gpu"))
            row.note = summary["no_gpu"].is_string() ? summary["no_gpu"].get<std::string>() : "";
        if (json.contains("score") && json["score"].is_object()) {
            const auto &score = json["score"];
            if (score.value("geomean_ratio_to_cublas", 0.0) > 0)
                row.score = score["geomean_ratio_to_cublas"].get<double>();
            if (score.value("geomean_ms", 0.0) > 0) row.geomean_ms = score["geomean_ms"].get<double>();
        }
    }
    if (row.worst == Verdict::JE && row.note.empty())
        row.note =
            "the judge exited with status " + std::to_string(ending.exit_status) + ": " + last_line(ending.output);
    if (row.no_gpu() && row.note.empty()) row.note = last_line(ending.output);
    return row;
}

bool ranks_before(const BatchRow &a, const BatchRow &b) {
    if (severity(a) != severity(b)) return severity(a) < severity(b);
    if (a.score.value_or(-1) != b.score.value_or(-1)) return a.score.value_or(-1) > b.score.value_or(-1);
    const auto accepted = [](const BatchRow &row) {
        const auto at = row.counts.find("AC");
        return at == row.counts.end() ? 0 : at->second;
    };
    if (accepted(a) != accepted(b)) return accepted(a) > accepted(b);
    return a.submission < b.submission;
}

void to_json(nlohmann::json &j, const BatchRow &row) {
    j = {{"submission", row.submission},
         {"key", row.key},
         {"gpu", row.gpu},
         {"counts", row.counts},
         {"worst", row.worst ? nlohmann::json(verdict_name(*row.worst)) : nlohmann::json(nullptr)},
         {"no_gpu", row.no_gpu()},
         {"score", row.score ? nlohmann::json(*row.score) : nlohmann::json(nullptr)},
         {"geomean_ms", row.geomean_ms ? nlohmann::json(*row.geomean_ms) : nlohmann::json(nullptr)},
         {"judge_exit_status", row.judge_exit_status},
         {"wall_s", row.wall_s},
         {"report", row.report},
         {"output", row.output},
         {"note", row.note},
         {"problem", row.problem}};
}

void from_json(const nlohmann::json &j, BatchRow &row) {
    row.submission = j.at("submission").get<std::string>();
    row.key = j.value("key", "");
    row.gpu = j.value("gpu", "");
    row.counts = j.value("counts", std::map<std::string, int>{});
    // A row that names no verdict (null: no GPU) has none; one that names an unknown word is
    // not settled either, and is judged again.
    const auto &worst = j.at("worst");
    if (worst.is_string()) row.worst = parse_verdict(worst.get<std::string>()).value_or(Verdict::JE);
    if (j.contains("score") && j["score"].is_number()) row.score = j["score"].get<double>();
    if (j.contains("geomean_ms") && j["geomean_ms"].is_number()) row.geomean_ms = j["geomean_ms"].get<double>();
    row.judge_exit_status = j.value("judge_exit_status", -1);
    row.wall_s = j.value("wall_s", 0.0);
    row.report = j.value("report", "");
    row.output = j.value("output", "");
    row.note = j.value("note", "");
    row.problem = j.value("problem", "");
}

} // namespace gemm::batch
