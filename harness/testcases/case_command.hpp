// `./judge case new|validate|show|export|import`: the testcase-authoring commands.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gemm {

// `./judge case ACTION …`: testcase authoring (case_tools.hpp does the work).
struct CaseCommandOptions {
    std::string action; // new, validate, show, export, import
    std::string name;   // new, show, export, import: a case name such as secret/19-my-case
    std::string path;   // validate: a file or folder (default: the suite)
    std::vector<int> shape;
    std::string data = "uniform -1 1"; // the suite's problem's default_data() unless data_given
    bool data_given = false;
    long long seed = 1; // signed, so a negative seed is refused as itself, not as 2^64 - 5
    std::optional<double> time_limit_s;
    std::string comment;
    std::string dir = ".";         // export: where the .in/.ans pair goes
    std::string in_path, ans_path; // import
    std::string problem;           // --problem: the suite is that problem's (its folder), its dims the shape's
};

// Runs one authoring command against the suite; returns the exit status: 0, 5 for an
// invalid testcase file, 7 when a file cannot be written, 64 for a bad request (the
// message names the option).
int run_case_command(const CaseCommandOptions &command, const std::string &suite_root);

} // namespace gemm
