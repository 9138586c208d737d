#include "command_line/reporters/reporter.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "testcases/case_tools.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <pugixml.hpp>
#include <sstream>
#include <unistd.h>

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

// The whole text or a SetupError naming the option and the file: a full disk (/dev/full)
// shows only when the buffered bytes reach it, at fflush or fclose. A regular file is
// written beside itself and renamed into place, so it is whole or not there: never a
// report cut where the disk filled up.
void write_report_file(const char *option, const std::string &path, const std::string &text) {
    const auto failed = [] { return errno != 0 ? errno : EIO; };
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    const bool in_place = std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
    const std::string written = in_place ? path : path + ".part" + std::to_string(getpid());
    std::FILE *file = std::fopen(written.c_str(), "w");
    int error = file ? 0 : failed();
    if (file) {
        if (std::fwrite(text.data(), 1, text.size(), file) != text.size() || std::fflush(file) != 0) error = failed();
        if (std::fclose(file) != 0 && error == 0) error = failed();
    }
    if (!in_place && error == 0 && std::rename(written.c_str(), path.c_str()) != 0) error = failed();
    if (!in_place && error != 0) std::remove(written.c_str());
    if (error != 0)
        throw SetupError(std::string("cannot write the ") + option + " report " + escape_for_terminal(path) + ": " +
                         std::strerror(error));
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
void Reporters::start_failed(const RunContext &run, Verdict verdict, const std::string &why) {
    for (auto &r : all_) r->start_failed(run, verdict, why);
}
void Reporters::case_skipped(const TestCase &tc, const std::string &why) {
    for (auto &r : all_) r->case_skipped(tc, why);
}
void Reporters::cases_not_run(const NotRun &not_run) {
    for (auto &r : all_) r->cases_not_run(not_run);
}
void Reporters::case_finished(const CaseResult &result, const TestCase &tc, const CasePolicy &policy) {
    for (auto &r : all_) r->case_finished(result, tc, policy);
}
void Reporters::no_gpu(const NoGpu &x) {
    for (auto &r : all_) r->no_gpu(x);
}
void Reporters::shrunk(const ShrinkFinding &x) {
    for (auto &r : all_) r->shrunk(x);
}
void Reporters::stressed(const StressFinding &x) {
    for (auto &r : all_) r->stressed(x);
}
void Reporters::profiled(const ProfileFinding &x) {
    for (auto &r : all_) r->profiled(x);
}
void Reporters::ranked(const RankSummary &x) {
    for (auto &r : all_) r->ranked(x);
}
void Reporters::compared(const CompareSummary &x) {
    for (auto &r : all_) r->compared(x);
}
void Reporters::history_listed(const HistoryList &x) {
    for (auto &r : all_) r->history_listed(x);
}
void Reporters::leaderboards_listed(const Leaderboards &x) {
    for (auto &r : all_) r->leaderboards_listed(x);
}
void Reporters::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    std::string failures;
    for (auto &r : all_) {
        try {
            r->run_finished(run, results, exit_status);
        } catch (const SetupError &e) {
            failures += (failures.empty() ? "" : "; ") + std::string(e.what());
        }
    }
    if (!failures.empty()) throw SetupError(failures);
}

// ---- ConsoleReporter -------------------------------------------------------------------

ConsoleReporter::ConsoleReporter(std::ostream &out, bool show_output, bool verbose, std::optional<bool> colour)
    : out_(out), show_output_(show_output), verbose_(verbose),
      colour_(colour.value_or(&out == &std::cout && terminal_wants_colour(STDOUT_FILENO))) {}

void ConsoleReporter::run_started(const RunContext &run) {
    layout_ = ConsoleLayout(run.planned);
    out_ << format_header(run);
    if (const auto p = parse_precision(run.precision); p && *traits_of(*p).console_note)
        out_ << traits_of(*p).console_note << "\n";
    out_ << format_column_titles(layout_) << std::flush;
}

void ConsoleReporter::compile_failed(const RunContext &run, const std::string &message) {
    said_once_ = true;
    out_ << escape_for_terminal(std::filesystem::path(run.solution).filename().string()) << "  "
         << styled_verdict(Verdict::CE, colour_) << ":\n";
    // nvcc's lines as it wrote them where they fit (a caret stays under its column), a longer
    // one broken at spaces: a message is read line by line.
    std::istringstream lines(escape_for_terminal(message, true));
    for (std::string line; std::getline(lines, line);)
        out_ << "  " << wrapped_where_long(line, console_width - 2, 4) << "\n";
    out_ << std::flush;
}

void ConsoleReporter::start_failed(const RunContext &run, Verdict verdict, const std::string &why) {
    said_once_ = true;
    out_ << escape_for_terminal(std::filesystem::path(run.solution).filename().string()) << "  "
         << styled_verdict(verdict, colour_)
         << (verdict == Verdict::JE ? ": the judge's processes did not start:\n" : " before any call of solve():\n")
         << fit_to_width(escape_for_terminal(why, true), console_width, 2) << std::flush;
}

void ConsoleReporter::note(const std::string &text) {
    out_ << wrapped_where_long(escape_for_terminal(text, true), console_width, 2) << "\n" << std::flush;
}

void ConsoleReporter::case_skipped(const TestCase &tc, const std::string &why) {
    out_ << fit_to_width(escape_for_terminal(tc.name) + "  skipped: " + escape_for_terminal(why, true), console_width,
                         0)
         << std::flush;
}

void ConsoleReporter::cases_not_run(const NotRun &not_run) {
    not_run_ += not_run.names.size();
    if (said_once_) return;
    out_ << fit_to_width(count_of_cases(not_run.names.size()) + " not run: " + escape_for_terminal(not_run.why),
                         console_width, 0)
         << std::flush;
}

void ConsoleReporter::case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) {
    out_ << format_row(r, layout_, show_output_, colour_);
    if (r.verdict == Verdict::WA && r.check && !r.check->map.empty()) out_ << format_map(r.check->map, r.M, r.K);
    if (r.verdict == Verdict::WA && policy.reveal && tc.M * double(tc.N) <= 4096 && tc.N * double(tc.K) <= 4096)
        out_ << indented(escape_for_terminal(show_case(tc), true));
    out_ << std::flush;
}

void ConsoleReporter::said(const std::string &text) {
    // A sentence longer than a line goes on under its own indent; the tables fit as they are.
    if (!text.empty())
        out_ << wrapped_where_long(escape_for_terminal(text, true), console_width, 2)
             << (text.back() == '\n' ? "" : "\n") << std::flush;
}

void ConsoleReporter::leaderboards_listed(const Leaderboards &x) {
    for (const Leaderboard &board : x.boards) said(text_of(board));
}

void ConsoleReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int) {
    if (results.empty()) return;
    out_ << format_summary(results, not_run_, run.timeline.total_s, colour_);
    // After the one reason said above (CE, never loaded) there is no method to tell.
    if (!said_once_)
        out_ << (verbose_ ? fit_to_width(format_verification(results) + format_clock(results) +
                                             format_timeline(run.timeline),
                                         console_width, 0)
                          : format_method(results) + format_events_alert(results));
    out_ << std::flush;
}

// ---- JsonReporter ----------------------------------------------------------------------

void SummariesAsJson::cases_not_run(const NotRun &not_run) {
    findings_["not_run"] = made_valid_utf8({{"cases", not_run.names}, {"why", not_run.why}});
}

nlohmann::json SummariesAsJson::whole_report(const RunContext &run, const std::vector<CaseResult> &results,
                                             int exit_status) const {
    auto report = report_json(run, results, exit_status);
    nlohmann::json findings = findings_;
    if (findings.contains("no_gpu")) {
        report["summary"]["no_gpu"] = findings["no_gpu"];
        findings.erase("no_gpu");
    }
    report.update(findings);
    return report;
}

void JsonReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) {
    write_report_file(
        "--json", path_,
        whole_report(run, results, exit_status).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

// ---- JUnitReporter ---------------------------------------------------------------------

namespace {

void set_text_attribute(pugi::xml_node node, const char *name, const std::string &value) {
    node.append_attribute(name).set_value(xml_safe(value).c_str());
}

std::string seconds_text(double seconds) { return fmt::format("{:.3f}", seconds); }

// The first line of a detail, for the message attribute a CI system shows in its summary.
std::string first_line(const std::string &text) { return text.substr(0, text.find('\n')); }

} // namespace

std::string junit_xml(const RunContext &run, const std::vector<CaseResult> &results, const std::string &no_gpu,
                      const NotRun &not_run) {
    int failures = 0, errors = 0;
    double seconds = 0;
    for (const auto &r : results) {
        failures += std::strcmp(verdict_row(r.verdict).junit_element, "failure") == 0;
        errors += std::strcmp(verdict_row(r.verdict).junit_element, "error") == 0;
        seconds += r.wall_seconds;
    }
    const bool nothing_ran = !no_gpu.empty() && results.empty();
    const std::string suite_name = std::filesystem::path(run.solution).filename().string();
    pugi::xml_document doc;
    auto declaration = doc.append_child(pugi::node_declaration);
    declaration.append_attribute("version").set_value("1.0");
    declaration.append_attribute("encoding").set_value("UTF-8");
    auto suite = doc.append_child("testsuite");
    set_text_attribute(suite, "name", suite_name);
    suite.append_attribute("tests").set_value(nothing_ran ? 1 : static_cast<int>(results.size()));
    suite.append_attribute("failures").set_value(failures);
    suite.append_attribute("errors").set_value(nothing_ran ? 1 : errors);
    suite.append_attribute("time").set_value(seconds_text(seconds).c_str());
    if (!not_run.names.empty()) {
        suite.attribute("tests").set_value(static_cast<int>(results.size() + not_run.names.size()));
        suite.append_attribute("skipped").set_value(static_cast<int>(not_run.names.size()));
    }
    if (nothing_ran) {
        auto testcase = suite.append_child("testcase");
        set_text_attribute(testcase, "classname", suite_name);
        testcase.append_attribute("name").set_value("no GPU");
        testcase.append_attribute("time").set_value(seconds_text(0).c_str());
        auto error = testcase.append_child("error");
        error.append_attribute("type").set_value("no GPU");
        set_text_attribute(error, "message", "no GPU: " + first_line(no_gpu) + "; nothing was run");
        error.append_child(pugi::node_pcdata).set_value(xml_safe(no_gpu).c_str());
    }
    for (const auto &r : results) {
        auto testcase = suite.append_child("testcase");
        set_text_attribute(testcase, "classname", suite_name);
        set_text_attribute(testcase, "name", r.name);
        testcase.append_attribute("time").set_value(seconds_text(r.wall_seconds).c_str());
        const char *element = verdict_row(r.verdict).junit_element;
        if (*element == '\0') continue;
        auto problem = testcase.append_child(element);
        problem.append_attribute("type").set_value(verdict_name(r.verdict));
        set_text_attribute(problem, "message", std::string(verdict_name(r.verdict)) + ": " + first_line(r.detail));
        problem.append_child(pugi::node_pcdata).set_value(xml_safe(r.detail).c_str());
    }
    for (const auto &name : not_run.names) {
        auto testcase = suite.append_child("testcase");
        set_text_attribute(testcase, "classname", suite_name);
        set_text_attribute(testcase, "name", name);
        testcase.append_attribute("time").set_value(seconds_text(0).c_str());
        set_text_attribute(testcase.append_child("skipped"), "message", "not run: " + not_run.why);
    }
    std::ostringstream out;
    doc.save(out, "  ", pugi::format_default, pugi::encoding_utf8);
    return out.str();
}

void JUnitReporter::run_finished(const RunContext &run, const std::vector<CaseResult> &results, int) {
    write_report_file("--junit", path_, junit_xml(run, results, no_gpu_, not_run_));
}

} // namespace gemm
