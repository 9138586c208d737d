// The reporters as a newcomer meets them: colour only on a terminal that wants it, text
// from outside escaped on the console, made valid UTF-8 in JSON and well-formed in JUnit,
// columns laid out by display width, and a report that cannot be written named (exit 7).
#include "command_line/reporters/console_reporter.hpp"
#include "command_line/reporters/json_reporter.hpp"
#include "command_line/reporters/junit_reporter.hpp"
#include "command_line/reporters/reporter_set.hpp"
#include "common/errors.hpp"
#include "common/terminal_text.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <fstream>
#include <optional>
#include <pugixml.hpp>
#include <regex>
#include <sstream>
#include <sys/mount.h>
#include <unistd.h>

using namespace gemm;
using gemm::test::contains;
using gemm::test::TempFolder;

namespace {

CaseResult with_verdict(const std::string &name, Verdict v, const std::string &detail = "") {
    CaseResult r;
    r.name = name;
    r.M = r.N = r.K = 2;
    r.verdict = v;
    r.detail = detail;
    return r;
}

RunContext run_of(const std::string &solution) {
    RunContext run;
    run.solution = solution;
    run.arch = "sm_90";
    run.device.present = true;
    run.device.name = "NVIDIA H200";
    return run;
}

std::string without_ansi(const std::string &text) {
    return std::regex_replace(text, std::regex("\x1b\\[[0-9;]*m"), "");
}

// No control byte but tab, newline and carriage return, valid UTF-8, and pugixml parses it:
// an XML 1.0 parser (a CI system's) accepts it.
void check_well_formed_xml(const std::string &xml) {
    CAPTURE(xml);
    CHECK(std::all_of(xml.begin(), xml.end(),
                      [](unsigned char c) { return c >= 0x20 || c == '\t' || c == '\n' || c == '\r'; }));
    CHECK(valid_utf8(xml) == xml);
    pugi::xml_document doc;
    CHECK(doc.load_string(xml.c_str()));
}

// A terminal for isatty(): the other end of a pseudo-terminal.
struct PseudoTerminal {
    int controller = -1, terminal = -1;
    PseudoTerminal() {
        controller = posix_openpt(O_RDWR | O_NOCTTY);
        if (controller >= 0 && grantpt(controller) == 0 && unlockpt(controller) == 0)
            terminal = open(ptsname(controller), O_RDWR | O_NOCTTY);
    }
    ~PseudoTerminal() {
        if (terminal >= 0) close(terminal);
        if (controller >= 0) close(controller);
    }
};

// Sets an environment variable for one scope (nullptr: unset).
struct ScopedEnv {
    std::string name;
    std::optional<std::string> old;
    ScopedEnv(const char *n, const char *value) : name(n) {
        if (const char *v = std::getenv(n)) old = v;
        value ? setenv(n, value, 1) : unsetenv(n);
    }
    ~ScopedEnv() { old ? setenv(name.c_str(), old->c_str(), 1) : unsetenv(name.c_str()); }
};

// Remembers what reached it.
struct Recording : Reporter {
    bool finished = false;
    void run_finished(const RunContext &, const std::vector<CaseResult> &, int) override { finished = true; }
};

} // namespace

TEST_CASE("a name with wide or accented characters is padded by its display width, so the columns line up") {
    const ConsoleLayout layout(
        {{"secret/ascii", 2, 2, 2}, {"secret/日本-ü", 2, 2, 2}, {"secret/cafe\xcc\x81", 2, 2, 2}});
    for (const std::string name : {"secret/ascii", "secret/日本-ü", "secret/cafe\xcc\x81"}) {
        CAPTURE(name);
        const std::string row = format_row(with_verdict(name, Verdict::AC), layout, false);
        CHECK(display_width(row.substr(0, row.find("2×2×2"))) == layout.name_width() + 2);
        CHECK(display_width(row.substr(0, row.find("AC"))) == layout.name_width() + 2 + layout.shape_width() + 2);
    }
}

TEST_CASE("verdicts are coloured only when asked, and colour changes nothing else") {
    for (Verdict v : {Verdict::AC, Verdict::WA, Verdict::TLE, Verdict::RE, Verdict::CE, Verdict::JE}) {
        const auto r = with_verdict("secret/x", v, "why");
        const std::string plain = format_row(r, ConsoleLayout(), false),
                          coloured = format_row(r, ConsoleLayout(), false, true);
        CHECK_FALSE(contains(plain, "\x1b"));
        CHECK(contains(coloured, "\x1b["));
        CHECK(without_ansi(coloured) == plain);
    }
    const std::vector<CaseResult> results{with_verdict("a", Verdict::AC), with_verdict("b", Verdict::WA)};
    CHECK(contains(format_summary(results, 0, 1.0, true), "\x1b[31m")); // the worst verdict's red
    CHECK(without_ansi(format_summary(results, 0, 1.0, true)) == format_summary(results, 0, 1.0));
    CHECK(contains(styled_verdict(Verdict::AC, true), "\x1b[32m"));
    CHECK(styled_verdict(Verdict::AC, false) == "AC");
}

TEST_CASE("colour is wanted on a terminal only, and not under NO_COLOR or TERM=dumb") {
    int pipe_ends[2];
    REQUIRE(pipe(pipe_ends) == 0);
    const ScopedEnv term("TERM", "xterm-256color");
    {
        const ScopedEnv no_colour("NO_COLOR", nullptr);
        CHECK_FALSE(terminal_wants_colour(pipe_ends[1]));
    }
    close(pipe_ends[0]);
    close(pipe_ends[1]);
    PseudoTerminal pty;
    if (pty.terminal < 0) return; // no pseudo-terminals here
    {
        const ScopedEnv no_colour("NO_COLOR", nullptr);
        CHECK(terminal_wants_colour(pty.terminal));
    }
    {
        const ScopedEnv no_colour("NO_COLOR", ""); // empty: as if unset (no-color.org)
        CHECK(terminal_wants_colour(pty.terminal));
    }
    {
        const ScopedEnv no_colour("NO_COLOR", "1");
        CHECK_FALSE(terminal_wants_colour(pty.terminal));
    }
    const ScopedEnv no_colour("NO_COLOR", nullptr);
    const ScopedEnv dumb("TERM", "dumb");
    CHECK_FALSE(terminal_wants_colour(pty.terminal));
}

TEST_CASE("the console escapes a solution's file name, case names, details and compiler output") {
    std::ostringstream out;
    ConsoleReporter console(out, true, false, false);
    const RunContext run = run_of("dir/evil\x1b]0;title\x07.cu");
    console.run_started(run);
    console.compile_failed(run, "nvcc failed\nsol.cu(1): error: caf\xe9 \x1b[2J\n");
    auto r = with_verdict("secret/\x1b[2Jx", Verdict::WA, "bad \x07 byte");
    r.output_tail = "printed \x1b[31mred\n";
    console.case_finished(r, TestCase{}, CasePolicy{});
    console.note("plot: dir/evil\x1b[1m.png");
    console.shrunk({"secret/a", {{1, 1, 1}, 3, {}}, "", "./judge dir/evil\x1b]0;title\x07.cu --shape 1x1x1"});
    const std::string text = out.str();
    CAPTURE(text);
    CHECK_FALSE(contains(text, "\x1b"));
    CHECK_FALSE(contains(text, "\x07"));
    CHECK_FALSE(contains(text, "\xe9 "));
    CHECK(contains(text, "evil\\x1b]0;title\\x07.cu  compiled for sm_90"));
    CHECK(contains(text, "caf\\xe9 \\x1b[2J"));
    CHECK(contains(text, "secret/\\x1b[2Jx"));
    CHECK(contains(text, "bad \\x07 byte"));
    CHECK(contains(text, "| printed \\x1b[31mred"));
}

TEST_CASE("every string in the JSON report is valid UTF-8, so it is written whatever the bytes") {
    RunContext run = run_of("caf\xe9.cu");
    run.compile.command = "nvcc caf\xe9.cu";
    auto r = with_verdict("secret/\xff", Verdict::CE, "sol.cu(1): error: #error caf\xe9");
    r.output_tail = "\xc3";
    const auto j = report_json(run, {r}, 4);
    std::string text;
    CHECK_NOTHROW(text = j.dump());
    CHECK(contains(text, "caf\xef\xbf\xbd.cu"));
    CHECK(contains(j.at("cases")[0].at("detail").get<std::string>(), "#error caf\xef\xbf\xbd"));
    CHECK(j.at("cases")[0].at("name") == "secret/\xef\xbf\xbd");

    TempFolder folder;
    JsonReporter json(folder.at("report.json"));
    json.shrunk({"secret/\xff", {{1, 1, 1}, 3, {"N = 16 passes \xc3"}}, "", "./judge caf\xe9.cu --shape 1x1x1"});
    json.run_finished(run, {r}, 4);
    std::ifstream in(folder.at("report.json"));
    const auto written = nlohmann::json::parse(in);
    CHECK(written.at("shrink").at("command") == "./judge caf\xef\xbf\xbd.cu --shape 1x1x1");
    CHECK(written.at("shrink").at("case") == "secret/\xef\xbf\xbd");
    CHECK(written.at("shrink").at("thresholds")[0] == "N = 16 passes \xef\xbf\xbd");
}

TEST_CASE("the JUnit file is well-formed XML whatever the names, details and compiler output hold") {
    const RunContext run = run_of("dir/caf\xe9\x1b[1m.cu");
    const std::vector<CaseResult> results{
        with_verdict("sample/a", Verdict::AC),
        with_verdict("secret/<b>&\"c\"", Verdict::WA, "3 of 9 elements\x01 wrong"),
        with_verdict("secret/\x1b[2J", Verdict::CE, "sol.cu(1): error: #error caf\xe9\nnext \x7f line"),
        with_verdict("perf/\xef\xbf\xbe", Verdict::RE, "an illegal memory access\x0b"),
    };
    const std::string xml = junit_xml(run, results);
    check_well_formed_xml(xml);
    pugi::xml_document doc;
    doc.load_string(xml.c_str());
    const auto suite = doc.child("testsuite");
    CHECK(std::string(suite.attribute("name").value()) == "caf\\xe9\\x1b[1m.cu");
    CHECK(suite.attribute("tests").as_int() == 4);
    CHECK(suite.attribute("failures").as_int() == 1);
    CHECK(suite.attribute("errors").as_int() == 2);
    const auto wa = suite.find_child_by_attribute("testcase", "name", "secret/<b>&\"c\"");
    CHECK(std::string(wa.child("failure").child_value()) == "3 of 9 elements\\x01 wrong");
    const auto ce = suite.find_child_by_attribute("testcase", "name", "secret/\\x1b[2J");
    CHECK(std::string(ce.child("error").child_value()) == "sol.cu(1): error: #error caf\\xe9\nnext \\x7f line");
    CHECK(std::string(ce.child("error").attribute("message").value()) == "CE: sol.cu(1): error: #error caf\\xe9");
}

TEST_CASE("without a GPU the JUnit file has an error saying so, never an empty passing suite") {
    TempFolder folder;
    JUnitReporter junit(folder.at("report.xml"));
    junit.no_gpu({"no NVIDIA driver is loaded (nvidia-smi fails)", "sol.cu", "sm_90", true, ""});
    junit.run_finished(run_of("sol.cu"), {}, exit_status::no_gpu);
    std::ifstream in(folder.at("report.xml"));
    const std::string xml((std::istreambuf_iterator<char>(in)), {});
    check_well_formed_xml(xml);
    pugi::xml_document doc;
    doc.load_string(xml.c_str());
    const auto suite = doc.child("testsuite");
    CHECK(suite.attribute("tests").as_int() == 1);
    CHECK(suite.attribute("errors").as_int() == 1);
    const auto error = suite.child("testcase").child("error");
    CHECK(std::string(error.attribute("type").value()) == "no GPU");
    CHECK(contains(error.attribute("message").value(), "no GPU: no NVIDIA driver is loaded"));
    CHECK(contains(error.child_value(), "nvidia-smi"));
}

TEST_CASE("a report that cannot be written is a setup error naming it, and the other reporters still finish") {
    Reporters all;
    all.add(std::make_unique<JsonReporter>("/dev/full"));
    all.add(std::make_unique<JUnitReporter>("/nonexistent-folder/report.xml"));
    auto recording = std::make_unique<Recording>();
    Recording &seen = *recording;
    all.add(std::move(recording));
    try {
        all.run_finished(run_of("sol.cu"), {with_verdict("sample/a", Verdict::AC)}, 0);
        FAIL("no SetupError");
    } catch (const SetupError &e) {
        const std::string why = e.what();
        CAPTURE(why);
        CHECK(contains(why, "cannot write the --json report /dev/full: No space left on device"));
        CHECK(contains(why, "cannot write the --junit report /nonexistent-folder/report.xml: No such file"));
    }
    CHECK(seen.finished);
}

TEST_CASE("a report the disk has no room for leaves the file as it was, never cut short") {
    TempFolder folder;
    // A disk of 8 KiB: a tmpfs, which only root may mount.
    if (geteuid() != 0 || mount("gemm-test", folder.path.c_str(), "tmpfs", 0, "size=8k") != 0) {
        std::printf("[skipped: no tmpfs]\n");
        return;
    }
    const std::string path = folder.at("report.json");
    std::ofstream(path) << "{\"earlier\": true}\n";
    std::vector<CaseResult> many;
    for (int i = 0; i < 200; ++i) many.push_back(with_verdict("sample/case-" + std::to_string(i), Verdict::AC));
    std::string why;
    try {
        JsonReporter(path).run_finished(run_of("sol.cu"), many, 0);
    } catch (const SetupError &e) {
        why = e.what();
    }
    CHECK(contains(why, "cannot write the --json report " + path + ": No space left on device"));
    CHECK(gemm::test::bytes_of(path) == "{\"earlier\": true}\n");
    CHECK(std::distance(std::filesystem::directory_iterator(folder.path), {}) == 1); // no partial file left
    umount2(folder.path.c_str(), MNT_DETACH);
}
