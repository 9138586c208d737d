// Every mode (suite, stress, sanitize, rank, compare, history) tells what happened
// through these events, and the reporters turn them into the console table, the JSON
// report and a JUnit file: one set of events, several outputs, as google/benchmark's
// reporters. No mode writes to the terminal itself.
#pragma once

#include "channel/protocol.hpp"
#include "judge/report.hpp"

#include <memory>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace gemm {

class Reporter {
  public:
    virtual ~Reporter() = default;
    // The solution compiled and a GPU is there: which solution, for what, on which GPU.
    virtual void run_started(const RunContext &) {}
    // nvcc failed or the library has no solve(): the message, before any case runs.
    virtual void compile_failed(const RunContext &, const std::string &) {}
    // A line about the run as a whole ("stress: 200 random shapes …: all AC").
    virtual void note(const std::string &) {}
    virtual void case_skipped(const TestCase &, const std::string &) {}
    virtual void case_finished(const CaseResult &, const TestCase &, const CasePolicy &) {}
    // A result beyond the cases (a shrunk failure, a stress run, a rank score): `value`
    // goes into the JSON report under `key`, `text` to the console.
    virtual void finding(const std::string &, const nlohmann::json &, const std::string &) {}
    virtual void run_finished(const RunContext &, const std::vector<CaseResult> &, int) {}
};

// Forwards every event to each reporter it holds.
class Reporters : public Reporter {
  public:
    void add(std::unique_ptr<Reporter> reporter) { all_.push_back(std::move(reporter)); }
    void run_started(const RunContext &run) override;
    void compile_failed(const RunContext &run, const std::string &message) override;
    void note(const std::string &text) override;
    void case_skipped(const TestCase &tc, const std::string &why) override;
    void case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) override;
    void finding(const std::string &key, const nlohmann::json &value, const std::string &text) override;
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::vector<std::unique_ptr<Reporter>> all_;
};

// The terminal table (judge/report.hpp formats its rows).
class ConsoleReporter : public Reporter {
  public:
    ConsoleReporter(std::ostream &out, bool show_output) : out_(out), show_output_(show_output) {}
    void run_started(const RunContext &run) override;
    void compile_failed(const RunContext &run, const std::string &message) override;
    void note(const std::string &text) override;
    void case_skipped(const TestCase &tc, const std::string &why) override;
    void case_finished(const CaseResult &r, const TestCase &tc, const CasePolicy &policy) override;
    void finding(const std::string &key, const nlohmann::json &value, const std::string &text) override;
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::ostream &out_;
    bool show_output_;
};

// --json FILE: report_json() with every finding, written when the run ends.
class JsonReporter : public Reporter {
  public:
    explicit JsonReporter(std::string path) : path_(std::move(path)) {}
    void finding(const std::string &key, const nlohmann::json &value, const std::string &text) override;
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::string path_;
    nlohmann::json findings_ = nlohmann::json::object();
};

// --junit FILE: one <testcase> per case, a <failure> for WA and TLE, an <error> for RE,
// CE and JE, so a CI system shows the judge's verdicts as test results.
class JUnitReporter : public Reporter {
  public:
    explicit JUnitReporter(std::string path) : path_(std::move(path)) {}
    void run_finished(const RunContext &run, const std::vector<CaseResult> &results, int exit_status) override;

  private:
    std::string path_;
};

// The JUnit XML of a run (what JUnitReporter writes).
std::string junit_xml(const RunContext &run, const std::vector<CaseResult> &results);

} // namespace gemm
