#include "authoring/case_tools.hpp"
#include "judge/reporter.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace gemm {

namespace {

std::string indented(const std::string &text) {
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = text.find('\n', start);
        out += "      " + text.substr(start, end - start) + "\n";
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

std::string xml_escaped(const std::string &text) {
    std::string out;
    for (unsigned char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default:
            // XML 1.0 has no place for control characters but tab and newline.
            if (c < 0x20 && c != '\n' && c != '\t')
                out += "?";
            else
                out += static_cast<char>(c);
        }
    }
    return out;
}

void write_file(const std::string &path, const std::string &text) {
    std::ofstream out(path);
    out << text;
    if (!out) std::cerr << "judge: cannot write " << path << "\n";
}

} // namespace

// ---- Reporters -------------------------------------------------------------------------

void Reporters::run_started(const RunContext &run) {
    for (auto &r : all_) r->run_started(run);
}
void Reporters::compile_failed(const RunContext &run, const std::string &message) {
    for (auto &r : all_) r->compile_failed(run, message);
}
void Reporters::note(const std::string &text) {
    for (auto &r : all_) r->note(text);
}
void Reporters::case_skipped(const TestCase &tc, const std::string &why) {
    for (auto &r : all_) r->case_skipped(tc, why);
}
void Reporters::case_finished(const CaseResult &result, const TestCase &tc, const CasePolicy &policy) {
    for (auto &r : all_) r->case_finished(result, tc, policy);
}
void Reporters::finding(const std::string &key, const nlohmann::json &value, const std::string &text) {
    for (auto &r : all_) r->finding(key, value, text);
}
void Reporters::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    for (auto &r : all_) r->run_finished(run, results, exit_status);
}

// ---- ConsoleReporter -------------------------------------------------------------------

void ConsoleReporter::run_started(const RunContext &run) {
    out_ << format_header(run);
    if (run.precision != "fp32") out_ << "precision: judged as " << run.precision << " (tensor cores admitted)\n";
    out_ << format_column_titles() << std::flush;
}

void ConsoleReporter::compile_failed(const RunContext &run, const std::string &message) {
    out_ << std::filesystem::path(run.solution).filename().string() << "  CE: " << message;
    if (message.empty() || message.back() != '\n') out_ << "\n";
    out_ << std::flush;
}

void ConsoleReporter::note(const std::string &text) { out_ << text << "\n" << std::flush; }

void ConsoleReporter::case_skipped(const TestCase &tc, const std::string &why) {
    out_ << tc.name << "  skipped: " << why << "\n" << std::flush;
}

void ConsoleReporter::case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) {
    out_ << format_row(r, show_output_);
    if (r.verdict == Verdict::WA && r.check && !r.check->map.empty()) out_ << format_map(r.check->map, r.M, r.K);
    if (r.verdict == Verdict::WA && policy.reveal && tc.M * double(tc.N) <= 4096 && tc.N * double(tc.K) <= 4096)
        out_ << indented(show_case(tc));
    out_ << std::flush;
}

void ConsoleReporter::finding(const std::string &, const nlohmann::json &, const std::string &text) {
    if (!text.empty()) out_ << text << (text.back() == '\n' ? "" : "\n") << std::flush;
}

void ConsoleReporter::run_finished(const RunContext &, const std::vector<CaseResult> &results, int exit_status) {
    if (results.empty()) return;
    out_ << format_summary(results, exit_status) << format_verification(results) << format_clock(results)
         << std::flush;
}

// ---- JsonReporter ----------------------------------------------------------------------

void JsonReporter::finding(const std::string &key, const nlohmann::json &value, const std::string &) {
    findings_[key] = value;
}

void JsonReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    auto report = report_json(run, results, exit_status);
    if (findings_.contains("no_gpu")) {
        report["summary"]["worst"] = nullptr;
        report["summary"]["no_gpu"] = findings_["no_gpu"];
        findings_.erase("no_gpu");
    }
    report.update(findings_);
    write_file(path_, report.dump(2) + "\n");
}

// ---- JUnitReporter ---------------------------------------------------------------------

std::string junit_xml(const RunContext &run, const std::vector<CaseResult> &results) {
    int failures = 0, errors = 0;
    double seconds = 0;
    for (const auto &r : results) {
        failures += r.verdict == Verdict::WA || r.verdict == Verdict::TLE;
        errors += r.verdict == Verdict::RE || r.verdict == Verdict::CE || r.verdict == Verdict::JE;
        seconds += r.wall_seconds;
    }
    const std::string suite = std::filesystem::path(run.solution).filename().string();
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += "<testsuite name=\"" + xml_escaped(suite) + "\" tests=\"" + std::to_string(results.size()) +
           "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) + "\" time=\"" +
           std::to_string(seconds) + "\">\n";
    for (const auto &r : results) {
        xml += "  <testcase classname=\"" + xml_escaped(suite) + "\" name=\"" + xml_escaped(r.name) + "\" time=\"" +
               std::to_string(r.wall_seconds) + "\"";
        if (r.verdict == Verdict::AC) {
            xml += "/>\n";
            continue;
        }
        const bool failure = r.verdict == Verdict::WA || r.verdict == Verdict::TLE;
        const std::string tag = failure ? "failure" : "error";
        xml += ">\n    <" + tag + " type=\"" + verdict_name(r.verdict) + "\" message=\"" + verdict_name(r.verdict) +
               "\">" + xml_escaped(r.detail) + "</" + tag + ">\n  </testcase>\n";
    }
    return xml + "</testsuite>\n";
}

void JUnitReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int) {
    write_file(path_, junit_xml(run, results));
}

} // namespace gemm
