#include "command_line/reporters/junit_reporter.hpp"
#include "command_line/reporters/report_file.hpp"
#include "common/terminal_text.hpp"

#include <fmt/format.h>
#include <pugixml.hpp>
#include <sstream>

namespace gemm {

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
