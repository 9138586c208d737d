#include "command_line/reporters/console_reporter.hpp"
#include "common/terminal_text.hpp"
#include "testcases/case_tools.hpp"

#include <iostream>
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

} // namespace

ConsoleReporter::ConsoleReporter(std::ostream &out, bool show_output, bool verbose, std::optional<bool> colour)
    : out_(out), show_output_(show_output), verbose_(verbose),
      colour_(colour.value_or(&out == &std::cout && terminal_wants_colour(STDOUT_FILENO))) {}

void ConsoleReporter::run_started(const RunContext &run) {
    layout_ = ConsoleLayout(run.planned);
    out_ << format_header(run);
    if (!run.default_problem) out_ << wrapped_where_long("problem: " + run.problem, console_width, 2) << "\n";
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
        out_ << (verbose_ ? fit_to_width(format_verification(results) + format_site_allclose(results) +
                                             format_clock(results) + format_timeline(run.timeline),
                                         console_width, 0)
                          : format_method(results) + format_events_alert(results));
    out_ << std::flush;
}

} // namespace gemm
